// A fast path for reading and writing the JSON of JSON-RPC messages, exact to nlohmann's own.
// Internal to the runtime (not installed).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "elicit/jsonrpc/message.hpp"

namespace elicit::jsonrpc::detail {

/// Parses `text` as one JSON value into `out`, giving exactly the document
/// nlohmann::json::parse(text) gives, when the text is plain well-formed JSON. Returns false
/// (leaving `out` unspecified) for anything it does not handle itself: malformed JSON, a byte order
/// mark, a NUL byte outside a string, invalid UTF-8, a number that does not convert exactly
/// (overflow, underflow), nesting deeper than 64 levels. The caller then parses with nlohmann,
/// which gives the document or the error. Throws only std::bad_alloc.
bool parse_plain_json(std::string_view text, nlohmann::json& out);

/// `text` as a document: parse_plain_json's, else nlohmann::json::parse's (which throws its
/// parse_error for malformed JSON, as it would alone). For texts that are expected to be well-formed.
nlohmann::json parse_json(std::string_view text);

/// The members of a JSON-RPC message's top-level object that parse_message reads.
struct PlainEnvelope {
  bool jsonrpc_2_0 = false;  ///< "jsonrpc" is the string "2.0"
  bool has_id = false;
  nlohmann::json id;
  bool has_method = false;
  bool method_is_string = false;
  std::string method;
  bool has_params = false;
  nlohmann::json params;
  bool has_result = false;
  nlohmann::json result;
  bool has_error = false;
  nlohmann::json error;
  /// With `params_meta_apart`: the text of params' `_meta` member, exactly as it came, when it is an
  /// object (then `params` has no `_meta`); empty otherwise.
  std::string params_meta;
};

/// parse_plain_json for a text that is one JSON object, read into its JSON-RPC members (other
/// members are read and dropped) without a document for the object itself. False, as for
/// parse_plain_json, and also when the text is not an object or repeats one of those members.
/// `params_meta_apart`: when params is an object, its `_meta` object is checked but kept as text
/// (PlainEnvelope::params_meta) rather than put in the document: the MCP layer reads the few members
/// it needs from it without building the rest (a 2026-07-28 request's _meta is most of its params).
bool parse_plain_envelope(std::string_view text, PlainEnvelope& out, bool params_meta_apart = false);

/// Reads the JSON object `object_text` as parse_plain_json would, but into out[i] only the value of
/// the member named keys[i] (found[i] says whether there is one; of a repeated name the last one,
/// as in nlohmann's document); the other members are checked and dropped. False as
/// parse_plain_json (then out[] and found[] are unspecified), and when the text is not an object.
bool pick_members(std::string_view object_text, const std::string_view* keys, std::size_t count, nlohmann::json* out,
                  bool* found);

/// parse_message for a request over an HTTP transport of MCP 2026-07-28: when the message is read
/// by the fast path and its params object has a `_meta` object, that member is left out of params
/// and its text put in `params_meta` (else `params_meta` is left empty and params is whole).
ParseResult parse_message_meta_apart(std::string_view text, std::string& params_meta);

/// Empties `j`'s containers children first, so that destroying it frees its nodes directly:
/// nlohmann's destructor moves every descendant of a non-empty container onto a heap-allocated
/// stack first (to avoid recursion), which costs about as much as freeing them. Recurses as deep
/// as the document, at most 64 levels (deeper parts are left to the destructor). Leaves `j` an
/// empty container of its type.
void dispose(nlohmann::json& j) noexcept;

/// Appends j.dump(-1, ' ', false, handler) to `out`: the same bytes, written without nlohmann's
/// serializer for objects, arrays, strings of valid UTF-8, integers, booleans and null (floats and
/// strings that are not valid UTF-8 go through nlohmann's, so `strict` throws its type_error 316 as
/// dump() does, and `replace` writes what it writes).
template <class Json>
void append_dump(std::string& out, const Json& j,
                 nlohmann::json::error_handler_t handler = nlohmann::json::error_handler_t::replace);

/// Appends `s` as a JSON string, as nlohmann::json(s).dump(-1, ' ', false, handler) writes it
/// (`strict`: nlohmann's type_error 316 for a string that is not valid UTF-8, `out` unchanged).
void append_json_string(std::string& out, std::string_view s,
                        nlohmann::json::error_handler_t handler = nlohmann::json::error_handler_t::replace);

extern template void append_dump(std::string&, const nlohmann::json&, nlohmann::json::error_handler_t);
extern template void append_dump(std::string&, const nlohmann::ordered_json&, nlohmann::json::error_handler_t);

}  // namespace elicit::jsonrpc::detail
