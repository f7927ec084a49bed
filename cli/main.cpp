// elicitgen: typed C++ from MCP elicitation requestedSchemas.
// Pipeline: load.cpp -> plan.cpp (model + checks) -> view.cpp -> emit.cpp, driven from here.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>

#include "ask_command.hpp"
#include "client_command.hpp"
#include "elicitgen_version.hpp"
#include "emit.hpp"
#include "load.hpp"
#include "names.hpp"
#include "ownership.hpp"
#include "plan.hpp"
#include "templates.hpp"

namespace elicitgen {
namespace {

constexpr int kOk = 0;
constexpr int kInvalid = 1;
constexpr int kUnreadable = 2;

bool valid_namespace(const std::string& ns) {
  if (ns.empty()) return true;
  std::size_t start = 0;
  while (true) {
    const auto sep = ns.find("::", start);
    const auto part = ns.substr(start, sep == std::string::npos ? std::string::npos : sep - start);
    if (part.empty() || (part[0] >= '0' && part[0] <= '9') || is_reserved_word(part)) return false;
    if (part.find("__") != std::string::npos || (part[0] == '_' && part.size() > 1 && part[1] >= 'A' && part[1] <= 'Z'))
      return false;
    for (char c : part) {
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    if (sep == std::string::npos) return true;
    start = sep + 2;
  }
}

struct GenerateOptions {
  std::vector<std::string> inputs;
  std::string out_dir;
  std::string cpp_namespace;
  std::string name;
  std::string templates_dir;
  std::vector<std::string> output_stems;  ///< one per input, in order, or none
  /// NAMESPACE=FILE: schemas that other elicitgen_generate() calls of the same target (or of a
  /// target it links) generate in NAMESPACE: a type of this run with the same qualified name is an error.
  std::vector<std::string> also_generated_by;
  bool no_send_pattern = false;
  bool warnings_as_errors = false;
};

bool valid_stem(const std::string& stem) {
  return !stem.empty() && stem.find('/') == std::string::npos && stem != "." && stem != "..";
}

// One input's schemas, with their type names (schema_type_name) claimed in `types` and their plans
// in `plans`; the errors go to `diags`. `given` is --name ("" for none).
void plan_input(const std::vector<SourceSchema>& sources, const std::string& given, std::vector<TypeClaim>& types,
                std::vector<TypePlan>& plans, Diagnostics& diags) {
  for (const auto& s : sources) {
    const auto name = schema_type_name(s, given, diags);
    if (!name) continue;
    types.push_back({*name, display_name(s.file), s.pointer});
    if (auto plan = plan_type(s, *name, diags)) plans.push_back(std::move(*plan));
  }
}

// The types of this run against those the other generate runs of one target make (--also-generated-by
// NAMESPACE=FILE, which elicitgen_generate() passes): the linker would otherwise find two definitions of
// each of the type's functions, pages of them, far from the cause. The other files' own errors are
// their run's to report; a file that cannot be read is an error here, since nothing can be checked.
void check_other_owners(const std::vector<TypeClaim>& claims, const std::string& qualifier,
                        const std::vector<std::string>& others, Diagnostics& diags) {
  const auto qualify = [](const std::string& ns, const std::string& name) {
    return ns.empty() ? name : ns + "::" + name;
  };
  for (const auto& other : others) {
    const auto eq = other.find('=');
    if (eq == std::string::npos) {
      diags.error_at("--also-generated-by", {}, "\"" + other + "\" is not NAMESPACE=FILE");
      continue;
    }
    const auto ns = other.substr(0, eq);
    const auto file = other.substr(eq + 1);
    Diagnostics theirs;
    const auto sources = load_schemas(file, theirs);
    if (sources.empty() && theirs.has_errors()) {
      diags.error_at(display_name(file), {}, "cannot read this schema of another elicitgen_generate() call");
      continue;
    }
    for (const auto& s : sources) {
      const auto name = schema_type_name(s, "", theirs);
      if (!name) continue;
      for (const auto& c : claims) {
        if (qualify(qualifier, c.name) != qualify(ns, *name)) continue;
        diags.error(c.file, c.pointer,
                    "type " + qualify(qualifier, c.name) + " is also generated from " + display_name(s.file) +
                        (s.pointer.empty() ? "" : "#" + s.pointer) +
                        " by another elicitgen_generate() call of this target (or of a target it links); a type has "
                        "one schema: give one of them another name with \"x-cpp-name\" on its root object");
      }
    }
  }
}

int run_generate(const GenerateOptions& o) {
  Diagnostics diags;
  if (!valid_namespace(o.cpp_namespace)) {
    std::cerr << "elicitgen: --namespace \"" << o.cpp_namespace
              << "\" is not a C++ namespace name (identifiers separated by ::)\n";
    return kInvalid;
  }
  if (!o.name.empty() && type_name(o.name) != o.name) {
    std::cerr << "elicitgen: --name \"" << o.name << "\" is not a valid type name; try \"" << type_name(o.name)
              << "\"\n";
    return kInvalid;
  }
  if (!o.output_stems.empty() && (o.output_stems.size() != o.inputs.size() ||
                                  !std::all_of(o.output_stems.begin(), o.output_stems.end(), valid_stem))) {
    std::cerr << "elicitgen: --output-stem names the outputs of one input, without directories: give it once per "
                 "input, in order\n";
    return kInvalid;
  }
  if (std::count(o.inputs.begin(), o.inputs.end(), "-") > 1) {
    std::cerr << "elicitgen: stdin (-) can be read only once\n";
    return kInvalid;
  }
  Templates templates = embedded_templates();
  if (!o.templates_dir.empty()) {
    auto t = load_templates(o.templates_dir, diags);
    if (t) templates = std::move(*t);
  }

  struct Unit {
    std::string input, stem;
    std::vector<TypePlan> types;
  };
  std::vector<Unit> units;
  std::vector<TypeClaim> type_claims;
  std::vector<StemClaim> stem_claims;
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    const auto& input = o.inputs[i];
    const auto sources = load_schemas(input, diags);
    if (!o.name.empty() && (o.inputs.size() != 1 || sources.size() > 1)) {
      diags.error_at(display_name(input), {}, "--name applies to a single schema; this run has more");
    }
    if (o.name.empty() && input == "-") diags.error_at("<stdin>", {}, "reading from stdin needs --name TypeName");
    // Output names are a trivial function of the input's name (file_stem), which the CMake
    // function computes the same way and passes as --output-stem: one rule, no second guess.
    Unit u{input, !o.output_stems.empty() ? o.output_stems[i] : input == "-" ? o.name : file_stem(input), {}};
    if (u.stem.empty()) {
      if (input != "-")
        diags.error_at(display_name(input), {},
                       "no output name: the file name has nothing before its first '.'; use --output-stem");
    } else {
      stem_claims.push_back({u.stem, display_name(input)});
    }
    plan_input(sources, o.name, type_claims, u.types, diags);
    units.push_back(std::move(u));
  }
  // Across the whole run: nothing is written unless every name has one owner.
  check_stem_owners(stem_claims, diags);
  check_type_owners(type_claims, o.cpp_namespace, diags);
  check_other_owners(type_claims, o.cpp_namespace, o.also_generated_by, diags);
  if (o.warnings_as_errors) diags.promote_warnings();
  std::vector<OutputFile> outputs;
  if (!diags.has_errors()) {
    for (const auto& u : units) {
      FileView view{display_name(u.input), u.stem + ".hpp", o.cpp_namespace, &u.types, !o.no_send_pattern};
      for (auto& f : render_file(view, o.out_dir, u.stem, templates, diags)) outputs.push_back(std::move(f));
    }
  }
  diags.print(std::cerr);
  if (diags.has_errors()) {
    std::cerr << "elicitgen: no files written\n";
    return kInvalid;
  }
  if (!write_files(outputs, diags)) {
    diags.print(std::cerr);
    return kInvalid;
  }
  return kOk;
}

// Each input is checked alone (its errors and warnings), then the inputs together, as `generate`
// would see them: type names and output names with one owner. Then an "ok" line for each schema of
// every input that has no error, alone or together. Exit 1 when anything is an error.
int run_lint(const std::vector<std::string>& inputs, bool warnings_as_errors) {
  int status = kOk;
  std::vector<TypeClaim> type_claims;
  std::vector<StemClaim> stem_claims;
  std::vector<std::pair<std::string, std::vector<std::string>>> summaries;  // per clean input
  Diagnostics together;  // the set's errors, placed in the files' texts
  for (const auto& input : inputs) {
    Diagnostics diags;
    const auto sources = load_schemas(input, diags);
    together.add_sources_of(diags);
    if (input != "-" && !file_stem(input).empty()) stem_claims.push_back({file_stem(input), display_name(input)});
    std::vector<TypePlan> plans;
    plan_input(sources, "", type_claims, plans, diags);
    if (warnings_as_errors) diags.promote_warnings();
    diags.print(std::cerr);
    if (diags.has_errors()) {
      status = kInvalid;
      continue;
    }
    std::vector<std::string> lines;
    for (const auto& plan : plans) {
      const auto n = plan.fields.size();
      lines.push_back(display_name(plan.source.file) + (plan.source.pointer.empty() ? "" : ":" + plan.source.pointer) +
                      ": ok, " + plan.name + " with " + std::to_string(n) + (n == 1 ? " property" : " properties"));
    }
    summaries.emplace_back(display_name(input), std::move(lines));
  }
  std::set<std::string> involved;  // files of a collision: not ok, even when each is ok alone
  check_stem_owners(stem_claims, together, &involved);
  check_type_owners(type_claims, "", together, &involved);
  together.print(std::cerr);
  if (together.has_errors()) status = kInvalid;
  for (const auto& [file, lines] : summaries) {
    if (involved.count(file)) continue;
    for (const auto& line : lines) std::cout << line << '\n';
  }
  return status;
}

// JSON Lines: one content object per line, validated in turn in this process (thousands of contents
// cost one process start, not one each). Every line is parsed before anything is printed, so an
// unreadable line gives exit 2 and no partial output. Blank lines (only spaces, tabs, a CR) are skipped.
int check_json_lines(const elicit::Form& form, const std::string& text, const std::string& data_name,
                     Diagnostics& diags) {
  std::vector<std::pair<std::size_t, nlohmann::json>> records;
  std::size_t line_no = 0;
  for (std::size_t start = 0; start < text.size();) {
    const auto end = std::min(text.find('\n', start), text.size());
    const auto line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (auto value = parse_json(line, data_name, diags, line_no)) {
      records.emplace_back(line_no, nlohmann::json(*value));
    }
  }
  if (diags.has_errors()) {
    diags.print(std::cerr);
    return kUnreadable;
  }
  bool all_ok = true;
  std::string out;
  for (const auto& [n, content] : records) {
    const auto result = elicit::validate_content(form, content);
    all_ok = all_ok && result.ok();
    for (const auto& e : result.errors) {
      out += std::to_string(n) + ':' + e.pointer + ": " + e.message + '\n';
    }
  }
  std::cout << out;
  return all_ok ? kOk : kInvalid;
}

int run_check(const std::string& schema_path, const std::string& data_path, const std::string& name, bool json_lines) {
  Diagnostics diags;
  if (schema_path == "-" && data_path == "-") {
    std::cerr << "elicitgen: the schema and the data cannot both come from stdin\n";
    return kUnreadable;
  }
  const auto form = load_one_form(schema_path, name, diags);
  if (!form) {
    diags.print(std::cerr);
    return kUnreadable;
  }
  const auto text = read_input(data_path, diags);
  if (text && json_lines) return check_json_lines(form->form, *text, display_name(data_path), diags);
  std::optional<nlohmann::ordered_json> data;
  if (text) data = parse_json(*text, display_name(data_path), diags);
  if (!data) {
    diags.print(std::cerr);
    return kUnreadable;
  }
  const auto result = elicit::validate_content(form->form, nlohmann::json(*data));
  std::cout << result.to_string();
  return result.ok() ? kOk : kInvalid;
}

}  // namespace
}  // namespace elicitgen

int main(int argc, char** argv) {
  using namespace elicitgen;
  CLI::App app{
      "elicitgen: typed C++17 for MCP elicitation requestedSchemas (MCP 2025-11-25 and 2026-07-28; form mode, and "
      "URL-mode browser forms)"};
  app.set_version_flag("--version", std::string("elicitgen ") + kVersion);
  app.require_subcommand(1);

  GenerateOptions gen;
  auto* generate = app.add_subcommand("generate", "Write a header and a source file per input file");
  generate
      ->add_option(
          "schemas", gen.inputs,
          "Schema files (- for stdin): a requestedSchema, elicitation/create params, or a collection of named schemas")
      ->required();
  generate->add_option("-o,--out-dir", gen.out_dir, "Directory for the generated files")->required();
  generate->add_option("--namespace", gen.cpp_namespace, "C++ namespace of the generated types (e.g. app::forms)");
  generate->add_option("--name", gen.name,
                       "Type name, for a single schema (required when reading stdin); by default the root's "
                       "x-cpp-name, else the collection key or file name in PascalCase");
  generate
      ->add_option("--output-stem", gen.output_stems,
                   "Name an input's outputs STEM.hpp and STEM.cpp: once per input, in order; by default the input's "
                   "file name up to its first '.', with bytes outside [A-Za-z0-9_] as '_' (stdin: the --name)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  generate
      ->add_option("--also-generated-by", gen.also_generated_by,
                   "NAMESPACE=FILE: a schema another generate run of the same build target makes types from, in "
                   "NAMESPACE (empty for the global one); a type of this run with the same qualified name is an "
                   "error (elicitgen_generate() passes these)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  generate->add_option("--templates", gen.templates_dir,
                       "Directory whose *.mustache files replace the built-in templates");
  generate->add_flag("--no-send-pattern", gen.no_send_pattern,
                     "Leave `pattern` out of requested_schema() (it is not in the 2025-11-25 schema.ts); responses are "
                     "still checked against it");

  generate->add_flag("--warnings-as-errors", gen.warnings_as_errors,
                     "Treat every warning as an error: exit 1 and write nothing");

  std::vector<std::string> lint_inputs;
  bool lint_werror = false;
  auto* lint = app.add_subcommand("lint", "Report whether each schema is a valid restricted requestedSchema");
  lint->add_option("schemas", lint_inputs, "Schema files (- for stdin)")->required();
  lint->add_flag("--warnings-as-errors", lint_werror, "Treat every warning as an error (exit 1)");

  std::string check_schema, check_data, check_name;
  auto* check = app.add_subcommand(
      "check", "Validate a response content object against a schema (exit 0 valid, 1 invalid, 2 unreadable)");
  check->add_option("schema", check_schema, "Schema file (- for stdin)")->required();
  check->add_option("data", check_data, "Content JSON file (- for stdin)")->required();
  check->add_option("--name", check_name, "Which schema of a collection file to use");
  bool check_jsonl = false;
  check->add_flag("--jsonl", check_jsonl,
                  "DATA is JSON Lines, one content object per line; each error prints as LINE:/pointer: message");

  ClientCommand client_cmd;
  auto* client =
      app.add_subcommand("client",
                         "Connect to an MCP server, call a tool, answer its elicitations, print the result (exit 0; 1 "
                         "a tool error, 2 a failure, 3 a question declined or cancelled, 4 authorization, 5 the "
                         "server not reached, 6 a parked call expired, 75 parked); or list its tools");
  auto* stdio = client->add_option("--stdio", client_cmd.stdio_command,
                                   "The server to run: \"CMD ARGS\" (quotes group, no shell)");
  auto* url = client->add_option("--url", client_cmd.url,
                                 "A Streamable HTTP endpoint (https://HOST[:PORT]/PATH, or http://); the server's "
                                 "certificate is verified against the system's CAs");
  stdio->excludes(url);
  url->excludes(stdio);
  client
      ->add_option("--ca-file", client_cmd.ca_file,
                   "With an https --url: trust only the CA certificates in this PEM file (a private CA)")
      ->check(CLI::ExistingFile)
      ->needs(url);
  client
      ->add_option("--client-id", client_cmd.client_id,
                   "When the server needs authorization: this pre-registered OAuth client ID (secret, if any, in "
                   "ELICITGEN_CLIENT_SECRET) instead of registering one")
      ->needs(url);
  client
      ->add_flag("--no-store", client_cmd.no_store,
                 "Keep sign-ins in memory only (default: saved in $XDG_STATE_HOME/elicitgen/oauth.json, "
                 "readable by you alone, and reused)")
      ->needs(url);
  client
      ->add_option("--bearer-token", client_cmd.bearer_token_file,
                   "A token you already hold, sent as Authorization: Bearer instead of signing in: the first line "
                   "of FILE, or of stdin for - (never on the command line); https, or http to this machine")
      ->excludes(stdio);
  client->add_option("--header", client_cmd.header_args,
                     "NAME:VALUE sent with every request (e.g. a gateway's key); repeatable; https, or http to "
                     "this machine");
  client->add_flag("--json", client_cmd.json,
                   "Print one JSON object on stdout for every outcome (result, tool_error, declined, cancelled, "
                   "unanswered, parked, failure with a category); human lines stay on stderr");
  client
      ->add_option("--protocol", client_cmd.protocol,
                   "Speak only this revision: 2026-07-28, 2025-11-25 or 2025-06-18 (default: 2026-07-28, and "
                   "2025-11-25 with a server that does not speak it)")
      ->check(CLI::IsMember({"2026-07-28", "2025-11-25", "2025-06-18"}));
  auto* answers = client->add_option("--answers", client_cmd.answers_file,
                                     "JSON Lines of ElicitResults ({\"action\":\"accept\",\"content\":{...}}), "
                                     "one per elicitation, in order");
  client->add_flag("--user-interaction", client_cmd.user_interaction,
                   "Speak the draft userInteraction dialect (interaction/create) instead of elicitation; "
                   "with --protocol 2025-11-25 or 2025-06-18");
  client->add_flag("--task-notifications", client_cmd.task_notifications,
                   "Follow a task from its notifications/tasks (a subscriptions/listen request) as well as by "
                   "tasks/get: status lines come as the task changes");
  client
      ->add_flag("--defaults", client_cmd.defaults,
                 "Accept every form with its defaults; decline URL requests, and forms with a required field "
                 "without a default (naming it; exit 2)")
      ->excludes(answers);
  client->require_subcommand(1);
  auto* call = client->add_subcommand("call", "Call one tool");
  call->fallthrough();  // --answers / --defaults may also follow the tool
  call->add_option("tool", client_cmd.tool, "Tool name")->required();
  call->add_option("arguments", client_cmd.arguments_json, "Tool arguments, a JSON object (default {})");
  call->add_option("--park", client_cmd.park_file,
                   "MCP 2026-07-28: at the first question that --answers or --defaults cannot answer (any, "
                   "without them), write the call to FILE (mode 0600, no tokens), print its questions, exit 75; "
                   "go on later with `elicitgen client resume FILE`");
  auto* resume = client->add_subcommand(
      "resume",
      "Go on with a call parked by `call ... --park FILE`: answer its questions (--answer KEY=JSON, --answers, "
      "--defaults or the terminal); prints the result and removes FILE, or parks again (exit 75); exit 6 when "
      "the server no longer honours the call");
  resume->fallthrough();
  resume->add_option("file", client_cmd.resume_file, "The park file")->required();
  resume->add_option("--answer", client_cmd.answer_pairs,
                     "KEY=JSON: the answer to the question under KEY: an ElicitResult ({\"action\":\"decline\"}) "
                     "or the content of an accept ({\"field\":\"value\"}); repeatable");
  auto* list = client->add_subcommand("list", "List the server's tools (every page): name, title, description");
  list->fallthrough();
  list->add_flag("--json", client_cmd.json,
                 "Print {\"elicitgen_output\": 1, \"outcome\": \"tools\", \"tools\": [the server's Tool objects]}");

  AskCommand ask_cmd;
  auto* ask = app.add_subcommand(
      "ask",
      "Fill in one form on the terminal (or a web page: --browser) and print the content as JSON (exit 0; 1 for "
      "decline or cancel, 2 for an unreadable or invalid schema)");
  ask->add_option("schema", ask_cmd.schema,
                  "Schema file (a requestedSchema or elicitation/create params; - for stdin with --browser)")
      ->required();
  ask->add_option("--name", ask_cmd.name, "Which schema of a collection file to use");
  ask->add_flag("--jsonl", ask_cmd.jsonl,
                "Print one ElicitResult line ({\"action\":\"accept\",\"content\":{...}}), which `elicitgen client "
                "--answers` replays");
  std::int64_t ask_timeout_ms = ask_cmd.timeout.count();
  auto* ask_browser = ask->add_flag("--browser", ask_cmd.browser,
                                    "Serve the form as a web page on 127.0.0.1 (a free port) and print its URL on "
                                    "stderr, instead of asking on the terminal");
  ask->add_flag("--no-open", ask_cmd.no_open,
                "With --browser: never try to open a browser (by default one is, when $BROWSER is set, or "
                "xdg-open and a display are there)")
      ->needs(ask_browser);
  ask->add_option("--timeout", ask_timeout_ms,
                  "With --browser: how long the page takes answers, in milliseconds (default 600000: 10 minutes); "
                  "then it prints {\"action\":\"cancel\"} and exits 1")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{30LL * 24 * 60 * 60 * 1000}))
      ->needs(ask_browser);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kUnreadable;
  }
  if (*generate) return run_generate(gen);
  if (*lint) return run_lint(lint_inputs, lint_werror);
  if (*check) return run_check(check_schema, check_data, check_name, check_jsonl);
  if (*client) {
    client_cmd.list = list->parsed();
    client_cmd.resume = resume->parsed();
    return run_client(client_cmd);
  }
  if (*ask) {
    ask_cmd.timeout = std::chrono::milliseconds(ask_timeout_ms);
    return run_ask(ask_cmd);
  }
  return kUnreadable;
}
