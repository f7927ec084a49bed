// Names with one owner across the inputs of one run (`elicitgen generate` and `elicitgen lint`
// with several schema files): two schemas that generate the same C++ type would build until one
// translation unit includes both headers, and two output names that differ only in case overwrite
// each other on case-insensitive file systems (macOS, Windows). Both are errors naming both files.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "diagnostics.hpp"

namespace elicitgen {

/// A type a schema generates: its name (unqualified; every type of a run shares one namespace)
/// and where the schema is (file as displayed, JSON Pointer of the requestedSchema).
struct TypeClaim {
  std::string name;
  std::string file;
  std::string pointer;
};

/// The output stem of one input file (STEM.hpp, STEM.cpp).
struct StemClaim {
  std::string stem;
  std::string file;  ///< as displayed
};

/// Reports every type claimed again, at the later schema, naming the first one's file and pointer
/// and the qualified name (`qualifier` is the namespace, "" for none). True when no two collide.
/// Both files of each collision go into `involved` when given.
bool check_type_owners(const std::vector<TypeClaim>& claims, const std::string& qualifier, Diagnostics& diags,
                       std::set<std::string>* involved = nullptr);

/// Reports every stem equal to an earlier one, or equal to it but for ASCII case, at the later
/// file, naming the earlier. True when no two collide. Both files of each collision go into
/// `involved` when given.
bool check_stem_owners(const std::vector<StemClaim>& claims, Diagnostics& diags,
                       std::set<std::string>* involved = nullptr);

}  // namespace elicitgen
