// One property's value in kind-neutral form: what the runtime reads from content and checks, and
// what generated code moves into (or copies out of) a data member. Light on purpose: generated
// files include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace elicit {

/// The value of one property; which member holds it depends on the property's FieldKind.
struct FieldValue {
  bool present = false;              ///< false: the property is absent (members below unused)
  std::string text;                  ///< string
  std::int64_t integer = 0;          ///< integer
  double number = 0;                 ///< number
  bool boolean = false;              ///< boolean
  std::size_t option = 0;            ///< single_select: index of the option (schema order)
  std::vector<std::size_t> options;  ///< multi_select: indices of the selected options, in order
};

}  // namespace elicit
