// The tiny main compiled against elicitgen's header for the compile-time comparison: read one
// content object from the command line into the generated type (decoded and validated).
#include "contact_form.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const auto form = elicit::decode_text<bench::ContactForm>(argv[1]);
  return form.ok() && !form.value->name.empty() ? 0 : 1;
}
