// Every type generated from samples/schemas, with the file and name `elicitgen check` needs.
#pragma once

#include <string>
#include <tuple>

#include "confirm_deletion.hpp"
#include "contact_information.hpp"
#include "github_username.hpp"
#include "sep1034_defaults.hpp"
#include "sep1330_enums.hpp"
#include "shipping.hpp"
#include "spec_property_examples.hpp"
#include "stripe_customer.hpp"
#include "tools_call_elicitation.hpp"

namespace sample_types {

template <class T>
struct Sample {
  using type = T;
  const char* file;  ///< under samples/schemas
  const char* name;  ///< --name for collections, else ""
};

inline auto all() {
  using namespace samples;
  return std::make_tuple(
      Sample<ConfirmDeletion>{"confirm_deletion.json", ""}, Sample<ContactInformation>{"contact_information.json", ""},
      Sample<GithubUsername>{"github_username.json", ""}, Sample<Sep1034Defaults>{"sep1034_defaults.json", ""},
      Sample<Sep1330Enums>{"sep1330_enums.json", ""}, Sample<ShippingAddress>{"shipping.json", "ShippingAddress"},
      Sample<DeliveryWindow>{"shipping.json", "DeliveryWindow"},
      Sample<SpecPropertyExamples>{"spec_property_examples.json", ""},
      Sample<StripeCustomer>{"stripe_customer.json", ""},
      Sample<ToolsCallElicitation>{"tools_call_elicitation.json", ""});
}

template <class F>
void for_each_sample(F&& f) {
  std::apply([&](auto... s) { (f(s), ...); }, all());
}

}  // namespace sample_types
