// The park file (parked_call.hpp).
#include "parked_call.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace elicitgen {
namespace {

constexpr const char* kFormat = "elicitgen-parked-call";
constexpr int kVersion = 1;

// Reading with a JSON Pointer to say where a member is missing or of the wrong type.
class Reader {
 public:
  Reader(const std::string& path, std::string& error) : path_(path), error_(error) {}

  bool fail(const std::string& pointer, const std::string& why) {
    error_ = path_ + ": " + (pointer.empty() ? std::string() : pointer + ": ") + why;
    return false;
  }
  // An object member; `required` false: absent is fine (then `out` is untouched).
  bool object(const nlohmann::ordered_json& parent, const std::string& pointer, const char* key,
              nlohmann::ordered_json& out, bool required = true) {
    const auto it = parent.find(key);
    if (it == parent.end()) return required ? fail(pointer + "/" + key, "missing") : true;
    if (!it->is_object()) return fail(pointer + "/" + key, "must be an object");
    out = *it;
    return true;
  }
  bool string(const nlohmann::ordered_json& parent, const std::string& pointer, const char* key, std::string& out,
              bool required = true) {
    const auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) return required ? fail(pointer + "/" + key, "missing") : true;
    if (!it->is_string()) return fail(pointer + "/" + key, "must be a string");
    out = it->get<std::string>();
    return true;
  }
  // An array of strings; `required`: present and not empty (then "a non-empty array of strings").
  bool strings(const nlohmann::ordered_json& parent, const std::string& pointer, const char* key,
               std::vector<std::string>& out, bool required) {
    const auto it = parent.find(key);
    if (it == parent.end() && !required) return true;
    if (it == parent.end() || !it->is_array() || (required && it->empty()))
      return fail(pointer + "/" + key,
                  required ? "must be a non-empty array of strings" : "must be an array of strings");
    for (std::size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string()) return fail(pointer + "/" + key + "/" + std::to_string(i), "must be a string");
      out.push_back((*it)[i].get<std::string>());
    }
    return true;
  }

 private:
  const std::string& path_;
  std::string& error_;
};

}  // namespace

nlohmann::ordered_json to_json(const ParkedCall& call) {
  nlohmann::ordered_json server;
  server["transport"] = call.server.transport;
  if (call.server.transport == "stdio") {
    server["argv"] = call.server.argv;
    server["cwd"] = call.server.cwd;
  } else {
    server["url"] = call.server.url;
    if (!call.server.ca_file.empty()) server["ca_file"] = call.server.ca_file;
    if (!call.server.client_id.empty()) server["client_id"] = call.server.client_id;
    if (call.server.bearer) server["auth"] = "bearer";
    if (!call.server.header_names.empty()) server["header_names"] = call.server.header_names;
  }
  nlohmann::ordered_json pending;
  pending["kind"] = call.pending.task_id.empty() ? "input_required" : "task";
  pending["inputRequests"] = call.pending.input_requests;
  if (call.pending.task_id.empty()) {
    if (!call.pending.request_state.is_null()) pending["requestState"] = call.pending.request_state;
  } else {
    pending["taskId"] = call.pending.task_id;
    pending["task"] = call.pending.task;
  }
  nlohmann::ordered_json out;
  out["format"] = kFormat;
  out["version"] = kVersion;
  out["parked_at"] = call.parked_at;
  out["round"] = call.round;
  out["server"] = std::move(server);
  out["protocol_version"] = call.protocol_version;
  out["client_info"] = call.client_info;
  out["declared"] = {{"form", true}, {"url", call.url_elicitation}};
  out["call"] = {{"method", "tools/call"}, {"name", call.tool}, {"arguments", call.arguments}};
  out["pending"] = std::move(pending);
  return out;
}

std::optional<ParkedCall> read_parked_call(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot read the park file (" + std::strerror(errno) + ")";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::ordered_json::parse(text.str(), nullptr, false);
  Reader r(path, error);
  if (j.is_discarded() || !j.is_object()) {
    r.fail("", "not JSON: a park file is one JSON object written by `elicitgen client call ... --park`");
    return std::nullopt;
  }
  if (j.value("format", std::string()) != kFormat) {
    r.fail("/format", std::string("must be \"") + kFormat + "\": not a park file");
    return std::nullopt;
  }
  const auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer()) {
    r.fail("/version", "missing");
    return std::nullopt;
  }
  if (version->get<int>() != kVersion) {
    r.fail("/version", version->get<int>() > kVersion
                           ? "written by a newer elicitgen (version " + version->dump() + "; this one reads 1)"
                           : "unknown version " + version->dump());
    return std::nullopt;
  }
  ParkedCall call;
  nlohmann::ordered_json server, c, pending;
  nlohmann::ordered_json declared = nlohmann::ordered_json::object();  // optional: nothing declared beyond forms
  if (!r.string(j, "", "parked_at", call.parked_at, false) || !r.object(j, "", "server", server) ||
      !r.string(j, "", "protocol_version", call.protocol_version) || !r.object(j, "", "call", c) ||
      !r.object(j, "", "pending", pending) || !r.object(j, "", "declared", declared, false))
    return std::nullopt;
  if (const auto round = j.find("round"); round != j.end()) {
    if (!round->is_number_integer() || round->get<int>() < 1) {
      r.fail("/round", "must be a whole number from 1");
      return std::nullopt;
    }
    call.round = round->get<int>();
  }
  call.client_info = j.contains("client_info") ? nlohmann::json(j["client_info"]) : nlohmann::json(nullptr);
  call.url_elicitation = declared.value("url", false);
  if (!r.string(server, "/server", "transport", call.server.transport)) return std::nullopt;
  if (call.server.transport == "stdio") {
    if (!r.strings(server, "/server", "argv", call.server.argv, true) ||
        !r.string(server, "/server", "cwd", call.server.cwd))
      return std::nullopt;
  } else if (call.server.transport == "http") {
    if (!r.string(server, "/server", "url", call.server.url) ||
        !r.string(server, "/server", "ca_file", call.server.ca_file, false) ||
        !r.string(server, "/server", "client_id", call.server.client_id, false))
      return std::nullopt;
    std::string auth;
    if (!r.string(server, "/server", "auth", auth, false)) return std::nullopt;
    if (!auth.empty() && auth != "bearer") {
      r.fail("/server/auth", "must be \"bearer\"");
      return std::nullopt;
    }
    call.server.bearer = auth == "bearer";
    if (!r.strings(server, "/server", "header_names", call.server.header_names, false)) return std::nullopt;
  } else {
    r.fail("/server/transport", "must be \"stdio\" or \"http\"");
    return std::nullopt;
  }
  std::string method;
  if (!r.string(c, "/call", "method", method) || !r.string(c, "/call", "name", call.tool)) return std::nullopt;
  if (method != "tools/call") {
    r.fail("/call/method", "this elicitgen resumes tools/call only");
    return std::nullopt;
  }
  if (const auto a = c.find("arguments"); a != c.end()) {
    if (!a->is_object()) {
      r.fail("/call/arguments", "must be an object");
      return std::nullopt;
    }
    call.arguments = nlohmann::json(*a);
  }
  std::string kind;
  if (!r.string(pending, "/pending", "kind", kind) ||
      !r.object(pending, "/pending", "inputRequests", call.pending.input_requests))
    return std::nullopt;
  if (kind == "input_required") {
    if (const auto s = pending.find("requestState"); s != pending.end())
      call.pending.request_state = nlohmann::json(*s);
  } else if (kind == "task") {
    if (!r.string(pending, "/pending", "taskId", call.pending.task_id)) return std::nullopt;
    if (call.pending.task_id.empty()) {
      r.fail("/pending/taskId", "must not be empty");
      return std::nullopt;
    }
    if (const auto t = pending.find("task"); t != pending.end()) call.pending.task = nlohmann::json(*t);
  } else {
    r.fail("/pending/kind", "must be \"input_required\" or \"task\"");
    return std::nullopt;
  }
  return call;
}

bool write_parked_call(const std::string& path, const ParkedCall& call, bool replace, std::string& error) {
  if (!replace && ::access(path.c_str(), F_OK) == 0) {
    error = path + ": already exists (a park file is never overwritten by a new call: remove it or choose another)";
    return false;
  }
  const auto text = to_json(call).dump(2) + "\n";
  const auto tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = tmp + ": cannot create (" + std::strerror(errno) + ")";
    return false;
  }
  std::size_t done = 0;
  bool ok = true;
  while (ok && done < text.size()) {
    const auto n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (ok && !replace && ::link(tmp.c_str(), path.c_str()) != 0) {
    // link() fails when `path` appeared meanwhile: never overwritten.
    error = path + ": cannot create (" + std::strerror(errno) + ")";
    ::unlink(tmp.c_str());
    return false;
  }
  if (ok && !replace) {
    ::unlink(tmp.c_str());
    return true;
  }
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": cannot write (" + std::strerror(ok ? errno : saved) + ")";
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

ParkFileLock::ParkFileLock(const std::string& path, std::string& error) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    error = path + ": cannot open (" + std::strerror(errno) + ")";
    return;
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    error = path + ": another `elicitgen client resume` of this file is running";
    ::close(fd_);
    fd_ = -1;
    return;
  }
  struct stat st {};
  readable_by_others_ = ::fstat(fd_, &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0;
}

ParkFileLock::~ParkFileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

nlohmann::ordered_json questions_json(const std::vector<elicit::ElicitationRequest>& questions) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& q : questions) {
    nlohmann::ordered_json j;
    j["key"] = q.key;
    j["mode"] = q.url_mode ? "url" : "form";
    j["message"] = q.message;
    if (q.url_mode) {
      j["url"] = q.url;
      j["host"] = q.url_review.host;
      j["warnings"] = q.url_review.warnings;
      if (!q.url_review.allowed) j["refused"] = q.url_review.refusal;
    } else {
      j["requestedSchema"] = q.requested_schema;
      if (!q.form) {
        nlohmann::ordered_json problems = nlohmann::ordered_json::array();
        for (const auto& d : q.schema_problems) problems.push_back(d.pointer + ": " + d.message);
        j["schema_problems"] = std::move(problems);
      }
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace elicitgen
