// The API of the types elicitgen generates: plain structs (data members, nested enums,
// operator==) whose schema, rules and JSON I/O are reached through traits and free functions, so
// that no property name can collide with a member function:
//
//   auto decoded = elicit::decode<app::Contact>(content);     // types, required, every constraint
//   elicit::ValidationResult errors = elicit::validate(value); // every constraint
//   nlohmann::json j = value;                                  // to_json / from_json by ADL
//   const auto& schema = elicit::requested_schema<app::Contact>();
//   std::string_view wire = elicit::to_string(app::Contact::Color::red);
//
// Generated code specialises form_traits<T> (and enum_traits<E> for each nested enum); the work
// runs in the precompiled runtime from the type's rule table (form_table.hpp), on the same Form
// model and the same read/check functions as validate_content() (content_rules.hpp). This header
// includes only nlohmann/json_fwd.hpp, so that generated files compile fast.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "elicit/content/field_value.hpp"
#include "elicit/content/form_table.hpp"
#include "elicit/content/validation.hpp"

namespace elicit {

struct Form;

/// Specialised by generated code for each form type T:
///   static const FormBinding& binding();      // the type's schema and rules, built at first use
///   static constexpr bool has_message;        // whether the schema file gave a `message`
///   static constexpr ElicitationMode mode;    // how T is asked (absent before elicitgen 0.1.1: form)
template <class T>
struct form_traits;

/// How a generated type is asked (MCP 2025-11-25, Client, Elicitation, "Elicitation Modes").
///  - form: elicitation/create in form mode; the client shows the form and sends the values back.
///  - url:  the schema file said `"mode": "url"`: a form the server serves in the user's browser
///          (forms::elicit_in_browser), for values that must never pass through the MCP
///          client (passwords, API keys, payment details: MCP says servers MUST use URL mode).
enum class ElicitationMode { form, url };

namespace detail {
template <class T, class = void>
struct mode_of : std::integral_constant<ElicitationMode, ElicitationMode::form> {};
template <class T>
struct mode_of<T, std::void_t<decltype(form_traits<T>::mode)>>
    : std::integral_constant<ElicitationMode, form_traits<T>::mode> {};
}  // namespace detail

/// The mode generated type T is asked in (form_traits<T>::mode; form for types generated without it).
template <class T>
inline constexpr ElicitationMode elicitation_mode_v = detail::mode_of<T>::value;

namespace detail {
/// Compiles only for a form-mode type: every typed form-mode call (RequestContext::elicit<T>,
/// elicit_async<T>, elicit_all, elicit_keyed, elicit<T>(session, ...)) goes through it, so that a
/// URL-mode type cannot be sent through the client by mistake.
template <class T>
constexpr void require_form_mode() {
  static_assert(elicitation_mode_v<T> == ElicitationMode::form,
                "this type was generated from a schema marked \"mode\": \"url\" (a browser form): its values must "
                "not pass through the MCP client. Ask it with elicit::forms::elicit_in_browser<T>(ctx) "
                "(or elicit_in_browser_async<T>()), not elicit<T>()");
}
}  // namespace detail

/// Specialised by generated code for each nested enum E of a form type:
///   static constexpr std::array<table::Option, N> options;   // enumerator i is option i
template <class E>
struct enum_traits;

/// Everything the runtime knows of one generated type: its rule table compiled into a Form, its
/// requestedSchema, its default message, and two glue functions that move values between the
/// struct's members and FieldValues (one per property, schema order). Built once per type
/// (function-local static in generated code); immutable and thread-safe afterwards.
class FormBinding {
 public:
  /// Moves `values` (one per property; absent ones untouched) into the members of `object`. Null
  /// for a form without properties, as is Store.
  using Load = void (*)(void* object, FieldValue* values);
  /// Copies the members of `object` into `values` (an absent optional stays absent).
  using Store = void (*)(const void* object, FieldValue* values);

  struct Spec {
    table::Form rules;
    std::string_view schema_json;  ///< the requestedSchema sent to clients, as JSON text
    std::optional<std::string_view> message;
    Load load = nullptr;
    Store store = nullptr;
  };
  /// Throws std::logic_error when the table does not describe a valid form (a pattern that does
  /// not compile, schema text that is not JSON): generated code never does that.
  explicit FormBinding(const Spec& spec);
  ~FormBinding();
  FormBinding(const FormBinding&) = delete;
  FormBinding& operator=(const FormBinding&) = delete;

  /// The form model the rules run on (the same type parse_requested_schema builds).
  const Form& form() const noexcept;
  /// The requestedSchema, exactly as generated (property order kept; `x-cpp-name` stripped).
  const nlohmann::ordered_json& requested_schema() const noexcept;
  /// requested_schema() as compact JSON text, ready to send.
  const std::string& schema_text() const noexcept;
  const std::optional<std::string_view>& message() const noexcept;

  /// Reads a content object into `object` (freshly made: absent optional properties keep their
  /// member defaults): types and required properties, and with `constraints` every rule too, in
  /// the order validate_content reports. True when there was no error. Never throws.
  bool read(const nlohmann::json& content, void* object, ValidationResult& errors, bool constraints) const;
  bool read(const nlohmann::ordered_json& content, void* object, ValidationResult& errors, bool constraints) const;
  /// read() of JSON text: text that is not JSON is one error at "" (keyword "type", the parser's
  /// reason and byte offset in the message). Never throws.
  bool read_text(std::string_view content_json, void* object, ValidationResult& errors) const;
  /// Every constraint on the members of `object`.
  ValidationResult validate(const void* object) const;
  /// The content object of `object`: every member, absent optionals omitted, enums as wire values.
  void write(const void* object, nlohmann::json& out) const;
  void write(const void* object, nlohmann::ordered_json& out) const;

 private:
  struct Impl;
  std::unique_ptr<const Impl> impl_;
};

/// Builds the Form model of a rule table (what parse_requested_schema would build from the
/// schema). Throws std::logic_error for a pattern that does not compile.
Form form_from_table(const table::Form& rules);

/// The requestedSchema of form type T, exactly as generated (property order kept).
template <class T>
const nlohmann::ordered_json& requested_schema() {
  return form_traits<T>::binding().requested_schema();
}

/// The `message` the schema file gave for T (elicitation/create params). Only for types whose
/// schema came with one; pass a message to elicit() for the others.
template <class T>
std::string_view default_message() {
  static_assert(form_traits<T>::has_message, "this form's schema file gives no message: pass one");
  return *form_traits<T>::binding().message();
}

/// Reads a response `content` object (ElicitResult.content of an accept): types, required
/// properties, then every constraint (lengths in code points, formats, patterns, bounds, a
/// multi-select's repeated options and item counts: a multi-select is a set, content_rules.hpp).
/// Holds the value only when there is no error; errors carry JSON Pointers relative to
/// the content object. Never throws.
template <class T>
Decoded<T> decode(const nlohmann::json& content) {
  Decoded<T> out;
  T value{};
  if (form_traits<T>::binding().read(content, &value, out.errors, true)) out.value = std::move(value);
  return out;
}

/// decode<T> of JSON text (e.g. the bytes as received), for code that does not include
/// nlohmann/json.hpp. Text that is not JSON is one error at "" (keyword "type"). Never throws.
template <class T>
Decoded<T> decode_text(std::string_view content_json) {
  Decoded<T> out;
  T value{};
  if (form_traits<T>::binding().read_text(content_json, &value, out.errors)) out.value = std::move(value);
  return out;
}

/// Checks every constraint of T's schema on `value`. Errors carry JSON Pointers relative to the
/// content object. Only for generated types (form_traits<T> specialised).
template <class T, class = decltype(form_traits<T>::binding())>
ValidationResult validate(const T& value) {
  return form_traits<T>::binding().validate(&value);
}

/// The wire value of an option of a generated enum; "" for a value outside the enum.
template <class E, class = decltype(enum_traits<E>::options)>
std::string_view to_string(E value) noexcept {
  const auto i = static_cast<std::size_t>(value);
  return i < enum_traits<E>::options.size() ? enum_traits<E>::options[i].wire : std::string_view();
}

/// The title of an option (`title` / `enumNames` entry); "" when the schema gives none.
template <class E, class = decltype(enum_traits<E>::options)>
std::string_view title_of(E value) noexcept {
  const auto i = static_cast<std::size_t>(value);
  return i < enum_traits<E>::options.size() ? enum_traits<E>::options[i].title : std::string_view();
}

/// Sets `out` from a wire value; false (leaving `out`) when `wire` is not an option.
template <class E, class = decltype(enum_traits<E>::options)>
bool from_string(std::string_view wire, E& out) noexcept {
  const auto& options = enum_traits<E>::options;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (options[i].wire == wire) {
      out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

/// Moving values between members and FieldValues: the overloads generated Load / Store functions
/// call, one line per property.
namespace glue {

inline void take(FieldValue& v, std::string& out) { out = std::move(v.text); }
inline void take(FieldValue& v, std::int64_t& out) { out = v.integer; }
inline void take(FieldValue& v, double& out) { out = v.number; }
inline void take(FieldValue& v, bool& out) { out = v.boolean; }
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
void take(FieldValue& v, E& out) {
  out = static_cast<E>(v.option);
}
template <class E>
void take(FieldValue& v, std::vector<E>& out) {
  out.clear();
  out.reserve(v.options.size());
  for (const auto i : v.options) out.push_back(static_cast<E>(i));
}
/// Into a member: only a value that is present (an absent one leaves the member's default).
template <class T>
void load(FieldValue& v, T& member) {
  if (v.present) take(v, member);
}
template <class T>
void load(FieldValue& v, std::optional<T>& member) {
  if (!v.present) return;
  T value{};
  take(v, value);
  member = std::move(value);
}

inline void put(FieldValue& v, const std::string& x) { v.text = x; }
inline void put(FieldValue& v, std::int64_t x) { v.integer = x; }
inline void put(FieldValue& v, double x) { v.number = x; }
inline void put(FieldValue& v, bool x) { v.boolean = x; }
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
void put(FieldValue& v, E x) {
  v.option = static_cast<std::size_t>(x);
}
template <class E>
void put(FieldValue& v, const std::vector<E>& x) {
  v.options.clear();
  v.options.reserve(x.size());
  for (const auto e : x) v.options.push_back(static_cast<std::size_t>(e));
}
/// From a member: a plain member is always present; an optional one when it holds a value.
template <class T>
void store(FieldValue& v, const T& member) {
  v.present = true;
  put(v, member);
}
template <class T>
void store(FieldValue& v, const std::optional<T>& member) {
  v.present = member.has_value();
  if (member) put(v, *member);
}

/// The bodies of a generated type's to_json / from_json (found by ADL in the type's namespace).
template <class Json, class T>
void to_content(Json& j, const T& value) {
  form_traits<T>::binding().write(&value, j);
}
/// Types and required properties only (a repeated multi-select option, like every other
/// constraint, is validate()'s); throws ContentError with every error. Absent optional members
/// take their defaults, not what `value` held.
template <class Json, class T>
void from_content(const Json& j, T& value) {
  ValidationResult errors;
  T fresh{};
  if (!form_traits<T>::binding().read(j, &fresh, errors, false)) throw ContentError(std::move(errors));
  value = std::move(fresh);
}

}  // namespace glue
}  // namespace elicit
