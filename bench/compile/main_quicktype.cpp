// The tiny main compiled against quicktype's output for the compile-time comparison: read one
// content object from the command line into the generated type.
#include "contact_form_quicktype.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  bench::ContactForm form = nlohmann::json::parse(argv[1]);
  return form.get_name().empty() ? 1 : 0;
}
