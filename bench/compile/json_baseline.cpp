// The baseline of the compile-time comparison: a translation unit that includes nlohmann/json.hpp
// and parses one value, the least any code that reads JSON with nlohmann compiles. A generated
// .cpp must compile in at most half its time (issue 14: it holds tables and thin glue, no
// nlohmann template instantiated per type).
#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  return nlohmann::json::parse(argv[1]).is_object() ? 0 : 1;
}
