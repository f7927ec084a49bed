// Type names have one owner across files (issue 26, item 6): `elicitgen generate` and `elicitgen
// lint` with several schema files refuse two schemas generating one C++ type and two output names
// that differ only in case, naming both files, exit 1, nothing written; "x-cpp-name" on a root
// object names the type. tests/cmake_generate/ shows the same through elicitgen_generate().
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "../support/run_command.hpp"
#include "../support/scratch_dir.hpp"

namespace type_owners_test {

namespace fs = std::filesystem;

namespace {

using Run = test_support::CommandResult;
using test_support::empty_or_missing;
using test_support::run_elicitgen;

const test_support::ScratchDir owners_scratch("owners");

const char* const kForm = R"({"type":"object","properties":{"room":{"type":"string"}}})";

std::string named(const std::string& cpp_name) {
  return R"({"type":"object","x-cpp-name":)" + cpp_name + R"(,"properties":{"room":{"type":"string"}}})";
}

}  // namespace

TEST_CASE("two files that generate one type, or stems that differ only in case, are refused", "[owners][cli]") {
  const auto lower = owners_scratch.write("room_booking.json", kForm);
  const auto dashed = owners_scratch.write("Room-Booking.json", kForm);  // stem Room_Booking, type RoomBooking
  const auto camel = owners_scratch.write("RoomBooking.json", kForm);    // stem RoomBooking, type RoomBooking

  auto out = owners_scratch.fresh("case-out");
  auto r = run_elicitgen("generate " + lower + " " + dashed + " -o " + out.string() + " --namespace app");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(dashed +
                                    ": error: output name Room_Booking.hpp differs only in case from "
                                    "room_booking.hpp, produced by " +
                                    lower + "; they overwrite each other on case-insensitive file systems"));
  CHECK_THAT(r.out, Catch::Contains(dashed + ":1:1: error: type app::RoomBooking is also generated from " + lower +
                                    "; a type has one schema"));
  CHECK_THAT(r.out, Catch::Contains("no files written"));
  CHECK(empty_or_missing(out));

  // Stems that differ in more than case, one type: only the type is an error.
  out = owners_scratch.fresh("type-out");
  r = run_elicitgen("generate " + lower + " " + camel + " -o " + out.string() + " --namespace app");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(camel + ":1:1: error: type app::RoomBooking is also generated from " + lower));
  CHECK_THAT(r.out, !Catch::Contains("output name"));
  CHECK(empty_or_missing(out));

  // lint checks the set as generate does: both errors, exit 1, no "ok" for either file.
  r = run_elicitgen("lint " + lower + " " + dashed);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(dashed + ": error: output name Room_Booking.hpp differs only in case"));
  CHECK_THAT(r.out, Catch::Contains(dashed + ":1:1: error: type RoomBooking is also generated from " + lower));
  CHECK_THAT(r.out, !Catch::Contains("ok,"));
  // ... while a third, unrelated file is still reported ok.
  const auto other = owners_scratch.write("other.json", kForm);
  r = run_elicitgen("lint " + lower + " " + camel + " " + other);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(other + ": ok, Other with 1 property"));
  CHECK_THAT(r.out, !Catch::Contains(lower + ": ok"));
  // Each file alone is fine.
  CHECK(run_elicitgen("lint " + lower).exit_code == 0);
  CHECK(run_elicitgen("lint " + dashed).exit_code == 0);
}

TEST_CASE("a collection member and a file that generate one type are refused", "[owners][cli]") {
  const auto collection = owners_scratch.write("forms.json", std::string(R"({"RoomBooking":)") + kForm + "}");
  const auto file = owners_scratch.write("room-booking.json", kForm);
  const auto out = owners_scratch.fresh("collection-out");
  const auto r = run_elicitgen("generate " + collection + " " + file + " -o " + out.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(file + ":1:1: error: type RoomBooking is also generated from " + collection +
                                    "#/RoomBooking"));
  CHECK(empty_or_missing(out));
}

TEST_CASE("x-cpp-name on the root object names the type", "[owners][x-cpp-name]") {
  const auto lower = owners_scratch.write("room_booking.json", kForm);
  const auto renamed = owners_scratch.write("RoomBooking.json", named(R"("RoomBookingV2")"));
  const auto out = owners_scratch.fresh("named-out");
  auto r = run_elicitgen("generate " + lower + " " + renamed + " -o " + out.string() + " --namespace app");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(test_support::read_file(out / "RoomBooking.hpp"), Catch::Contains("struct RoomBookingV2 {"));
  CHECK_THAT(test_support::read_file(out / "room_booking.hpp"), Catch::Contains("struct RoomBooking {"));
  // Clients never see it: the schema sent has no x-cpp-name.
  CHECK_THAT(test_support::read_file(out / "RoomBooking.cpp"), !Catch::Contains("x-cpp-name"));
  r = run_elicitgen("lint " + lower + " " + renamed);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains(renamed + ": ok, RoomBookingV2 with 1 property"));

  // Two x-cpp-names asking for one type collide like derived names do.
  const auto again = owners_scratch.write("again.json", named(R"("RoomBookingV2")"));
  r = run_elicitgen("lint " + renamed + " " + again);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains(again + ":1:1: error: type RoomBookingV2 is also generated from " + renamed));

  // In a collection, per member; --name wins over it.
  const auto collection =
      owners_scratch.write("pair.json", R"({"A":)" + named(R"("First")") + R"(,"B":)" + named(R"("Second")") + "}");
  r = run_elicitgen("lint " + collection);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains(":/A: ok, First with 1 property") && Catch::Contains(":/B: ok, Second"));
  // check --name finds a member by it too.
  const auto data = owners_scratch.write("pair-data.json", R"({"room":7})");
  r = run_elicitgen("check " + collection + " " + data + " --name Second");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "/room: must be a string\n");
  const auto given = owners_scratch.fresh("given-out");
  REQUIRE(run_elicitgen("generate " + renamed + " --name Given -o " + given.string()).exit_code == 0);
  CHECK_THAT(test_support::read_file(given / "RoomBooking.hpp"), Catch::Contains("struct Given {"));
}

TEST_CASE("a root x-cpp-name that cannot be a C++ type name is an error at its pointer", "[owners][x-cpp-name]") {
  for (const char* bad : {R"("class")", R"("2Fast")", R"("Room Booking")", R"("")", R"("_Reserved")", R"("a__b")",
                          R"("NULL")", R"(7)", R"(null)"}) {
    INFO(bad);
    const auto file = owners_scratch.write("bad_name.json", named(bad));
    const auto out = owners_scratch.fresh("bad-name-out");
    const auto r = run_elicitgen("generate " + file + " -o " + out.string());
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains(file + ":1:18: error: /x-cpp-name: "));
    CHECK(empty_or_missing(out));
    CHECK(run_elicitgen("lint " + file).exit_code == 1);
  }
  // Where the schema sits in elicitation/create params, the pointer says so.
  const auto params = owners_scratch.write("params.json", R"({"message":"m","requestedSchema":)" + named(R"("for")") + "}");
  CHECK_THAT(run_elicitgen("lint " + params).out,
             Catch::Contains(params + ":1:51: error: /requestedSchema/x-cpp-name: \"for\" cannot "
                                      "be a C++ name"));
}

TEST_CASE("each input has one --output-stem, in order", "[owners][cli]") {
  const auto a = owners_scratch.write("first.json", kForm);
  const auto b = owners_scratch.write("second.json", named(R"("Second")"));
  const auto out = owners_scratch.fresh("stems-out");
  auto r = run_elicitgen("generate " + a + " " + b + " -o " + out.string() + " --output-stem One --output-stem Two");
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(out / "One.hpp"));
  CHECK(fs::exists(out / "Two.cpp"));
  CHECK_FALSE(fs::exists(out / "first.hpp"));
  // Too few, or two that differ only in case: refused, nothing written.
  const auto bad = owners_scratch.fresh("stems-bad");
  CHECK(run_elicitgen("generate " + a + " " + b + " -o " + bad.string() + " --output-stem One").exit_code == 1);
  r = run_elicitgen("generate " + a + " " + b + " -o " + bad.string() + " --output-stem Same --output-stem same");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("output name same.hpp differs only in case from Same.hpp"));
  CHECK(empty_or_missing(bad));
}

}  // namespace type_owners_test
