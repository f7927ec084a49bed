// C++ identifiers from schema strings: always valid, never reserved, stable for the same input.
#pragma once

#include <string>
#include <string_view>

namespace elicitgen {

/// snake_case identifier for a data member or enumerator ("firstName" -> "first_name",
/// "class" -> "class_", "2fa" -> "_2fa", "café" -> "caf_u00e9", "" -> "unnamed"). Names longer
/// than 96 characters keep 80 and gain "_" + 8 hex digits of a hash of `json_name` (all three
/// functions).
std::string member_name(std::string_view json_name);

/// PascalCase identifier for a type ("contact-info" -> "ContactInfo", "2fa" -> "T2fa").
std::string type_name(std::string_view text);

/// The stem of the output files for an input file: its name without directories, up to the first
/// '.', with every byte outside [A-Za-z0-9_] replaced by '_' and case kept ("forms/RSVPForm.json"
/// -> "RSVPForm", "cancel-booking.json" -> "cancel_booking", "café.json" -> "caf__",
/// "order.schema.json" -> "order"). Empty when nothing precedes the first '.'.
/// cmake/ElicitgenGenerate.cmake applies the same rule, and passes its result as --output-stem.
std::string file_stem(std::string_view path);

/// True for C++20 keywords, alternative tokens, and macros that common headers define.
bool is_reserved_word(std::string_view word);

}  // namespace elicitgen
