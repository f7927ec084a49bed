// Run-time prefill of a generated form: T's requestedSchema with its defaults taken from a T value
// (MCP 2025-11-25 and 2026-07-28, Client, "Elicitation": defaults, SEP-1034). Apart from form.hpp,
// which generated headers include without nlohmann/json.hpp.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "elicit/content/form.hpp"

namespace elicit {

/// T's requestedSchema with each property's `default` taken from `prefill` (MCP 2025-11-25,
/// Elicitation, SEP-1034 defaults): a run-time prefill, e.g. a start time of now or attendees from
/// a tool's arguments. Properties `prefill` leaves empty (an unset optional) keep the schema's own
/// default, or none. Throws std::invalid_argument when `prefill` breaks T's rules (validate<T>),
/// naming each error by JSON Pointer: a client shows defaults as the user's answer.
template <class T, class = decltype(form_traits<T>::binding())>
nlohmann::ordered_json prefilled_schema(const T& prefill) {
  const auto errors = validate(prefill);
  if (!errors.ok()) {
    std::string why = "prefill breaks the form's rules:";
    for (const auto& e : errors.errors)
      why += " " + (e.pointer.empty() ? std::string("/") : e.pointer) + ": " + e.message + ";";
    why.pop_back();
    throw std::invalid_argument(why);
  }
  auto schema = requested_schema<T>();
  const nlohmann::json values = prefill;
  auto& properties = schema["properties"];
  for (auto it = values.begin(); it != values.end(); ++it) {
    if (it->is_null() || !properties.contains(it.key())) continue;
    properties[it.key()]["default"] = *it;
  }
  return schema;
}

}  // namespace elicit
