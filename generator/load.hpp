// Stage 1, load: read JSON files (or stdin) and find the requestedSchemas in them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <elicit/content/schema.hpp>

#include "diagnostics.hpp"

namespace elicitgen {

/// One requestedSchema found in an input file.
struct SourceSchema {
  std::string file;       ///< path as given ("-" reads stdin; reported as "<stdin>")
  std::string pointer;    ///< JSON Pointer of the requestedSchema inside the file
  std::string name_hint;  ///< collection key, or the file stem
  nlohmann::ordered_json schema;
  std::optional<std::string> message;  ///< `message` of an elicitation/create params object
  /// The params said `"mode": "url"`: a form the server serves in the browser
  /// (forms::elicit_in_browser), where secrets belong.
  bool browser = false;
};

/// Reads one input. Accepted shapes:
///  - a bare requestedSchema ({"type": "object", "properties": ...});
///  - elicitation/create params ({"message": ..., "requestedSchema": ...}) or a whole request
///    ({"method": "elicitation/create", "params": {...}}); the message becomes elicit::default_message<T>();
///    `"mode": "url"` with a requestedSchema (elicitgen's, not the spec's: URL mode has none) is a
///    form the server serves in the browser, where fields that look secret are expected;
///  - a collection: an object whose members are each one of the above, keyed by type name.
/// Errors (unreadable file, malformed JSON with line and column, unknown shape) go to `diags`, and
/// the text of a file that parses is registered there, so that later messages about it (the
/// model's, the plan's) carry the line and column of their JSON Pointer.
std::vector<SourceSchema> load_schemas(const std::string& path, Diagnostics& diags);

/// A schema and its model in the runtime (schema.hpp), read without errors.
struct LoadedForm {
  SourceSchema source;
  elicit::Form form;
};

/// The one form a command works on (`check`, `ask`): the schema of `path` named `name` (a
/// collection key, its type name, or a root "x-cpp-name"; "" when the file holds exactly one). Nullopt, with every
/// error in `diags` (the file's, a missing or ambiguous name, each schema error at its pointer), when there is none to
/// use.
std::optional<LoadedForm> load_one_form(const std::string& path, const std::string& name, Diagnostics& diags);

/// Reads a whole file or stdin ("-"). Returns nullopt and reports an error when it cannot.
std::optional<std::string> read_input(const std::string& path, Diagnostics& diags);

/// Parses JSON text, keeping object member order. On error, reports it at its line and column
/// (bytes) of `file`, where the text starts at line `first_line` (a JSON Lines record's; 1 for a
/// whole file): "FILE:6:1: error: malformed JSON: syntax error while parsing value - unexpected
/// '}'...". A number beyond double (nlohmann gives no position) is reported at the first line.
std::optional<nlohmann::ordered_json> parse_json(const std::string& text, const std::string& file, Diagnostics& diags,
                                                 std::size_t first_line = 1);

/// The file name without directories and extensions ("dir/contact.schema.json" -> "contact").
std::string path_stem(const std::string& path);

/// "<stdin>" for "-", else the path.
std::string display_name(const std::string& path);

}  // namespace elicitgen
