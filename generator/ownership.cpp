#include "ownership.hpp"

#include <map>

namespace elicitgen {
namespace {

std::string ascii_lower(std::string s) {
  for (auto& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return s;
}

std::string location(const std::string& file, const std::string& pointer) {
  return pointer.empty() ? file : file + "#" + pointer;
}

}  // namespace

bool check_type_owners(const std::vector<TypeClaim>& claims, const std::string& qualifier, Diagnostics& diags,
                       std::set<std::string>* involved) {
  bool ok = true;
  std::map<std::string, const TypeClaim*> owner;
  for (const auto& c : claims) {
    const auto [it, fresh] = owner.emplace(c.name, &c);
    if (fresh) continue;
    ok = false;
    if (involved) involved->insert({c.file, it->second->file});
    const auto qualified = qualifier.empty() ? c.name : qualifier + "::" + c.name;
    diags.error(c.file, c.pointer,
                "type " + qualified + " is also generated from " + location(it->second->file, it->second->pointer) +
                    "; a type has one schema: give one of them another name with \"x-cpp-name\" on its root object");
  }
  return ok;
}

bool check_stem_owners(const std::vector<StemClaim>& claims, Diagnostics& diags, std::set<std::string>* involved) {
  bool ok = true;
  std::map<std::string, const StemClaim*> owner;  // by the stem in lower case
  for (const auto& c : claims) {
    const auto [it, fresh] = owner.emplace(ascii_lower(c.stem), &c);
    if (fresh) continue;
    ok = false;
    const auto& first = *it->second;
    if (involved) involved->insert({c.file, first.file});
    if (first.stem == c.stem) {
      diags.error_at(c.file, {}, "output name " + c.stem + ".hpp is also produced by " + first.file);
    } else {
      diags.error_at(c.file, {},
                     "output name " + c.stem + ".hpp differs only in case from " + first.stem + ".hpp, produced by " +
                         first.file + "; they overwrite each other on case-insensitive file systems: rename one file");
    }
  }
  return ok;
}

}  // namespace elicitgen
