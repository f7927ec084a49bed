// The end of a run of `elicitgen client` (client_output.hpp).
#include "client_output.hpp"

#include <iostream>
#include <stdexcept>

#include <elicit/jsonrpc/message.hpp>
#include <elicit/jsonrpc/transport.hpp>

#include "client_command.hpp"
#include "terminal_form.hpp"
#include "tool_table.hpp"

namespace elicitgen {
namespace {

// What --json prints: one object, its text escaped where it is not valid UTF-8.
void print(const nlohmann::ordered_json& j) {
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

}  // namespace

Failure classify(const elicit::ClientError& e, bool resuming) {
  Failure f;
  f.message = e.what();
  const auto& data = e.data();
  const auto kind = data.is_object() ? data.value(elicit::jsonrpc::kTransportFailure, std::string()) : std::string();
  if (!kind.empty()) {
    f.http_status = data.value("httpStatus", 0);
    if (kind == "connect" || kind == "no_answer") {
      f.category = "connect";
    } else if (kind == "tls") {
      f.category = "tls";
    } else if (kind == "authorization" || f.http_status == 401 || f.http_status == 403) {
      f.category = "auth";
    } else {
      f.category = "protocol";
    }
    if (data.contains("serverError")) f.jsonrpc_error = data["serverError"];
    return f;
  }
  if (e.code() == 0) {
    f.category = "protocol";
    return f;
  }
  f.category = resuming && e.code() == elicit::error_code::invalid_params ? "expired" : "server_error";
  f.jsonrpc_error = {{"code", e.code()}, {"message", e.what()}};
  if (!data.is_null()) f.jsonrpc_error["data"] = data;
  return f;
}

Failure current_failure() {
  try {
    throw;
  } catch (const elicit::ClientError& e) {
    return classify(e);
  } catch (const std::invalid_argument& e) {
    return {"usage", e.what(), nullptr, 0};
  } catch (const std::exception& e) {
    return {"connect", e.what(), nullptr, 0};
  }
}

int exit_code_of(const std::string& category) {
  if (category == "auth") return kClientAuthorization;
  if (category == "connect" || category == "tls") return kClientUnreachable;
  if (category == "expired") return kClientExpired;
  return kClientFailed;
}

nlohmann::ordered_json ClientOutput::envelope(const char* outcome) {
  nlohmann::ordered_json j;
  j["elicitgen_output"] = 1;
  j["outcome"] = outcome;
  return j;
}

void ClientOutput::answered(const elicit::ElicitationRequest& r, const elicit::Answer& a) {
  say_answer(r, a);
  std::lock_guard<std::mutex> lock(mutex_);
  answered_.emplace_back(r.key, a.action);
}

nlohmann::ordered_json ClientOutput::answered_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& [key, action] : answered_) {
    nlohmann::ordered_json one;
    if (!key.empty()) one["key"] = key;
    one["action"] = elicit::to_string(action);
    list.push_back(std::move(one));
  }
  return list;
}

int ClientOutput::result(const nlohmann::json& result) {
  const auto is_error = result.find("isError");
  const bool tool_error = is_error != result.end() && is_error->is_boolean() && is_error->get<bool>();
  const char* said_no = nullptr;  // the last decline or cancel of this run, if any
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [key, action] : answered_) {
      if (action == elicit::ElicitAction::decline) said_no = "declined";
      if (action == elicit::ElicitAction::cancel) said_no = "cancelled";
    }
  }
  const char* outcome = tool_error ? "tool_error" : said_no ? said_no : "result";
  if (json_) {
    auto j = envelope(outcome);
    j["result"] = result;
    j["answered"] = answered_json();
    print(j);
  } else {
    std::cout << result.dump(2) << "\n";
  }
  return tool_error ? kClientToolError : said_no ? kClientDeclined : 0;
}

int ClientOutput::unanswered(const nlohmann::json& result, const std::string& message) {
  if (json_) {
    auto j = envelope("unanswered");
    j["message"] = message;
    j["result"] = result;
    j["answered"] = answered_json();
    print(j);
  } else {
    std::cout << result.dump(2) << "\n";
  }
  return kClientFailed;
}

int ClientOutput::failure(const Failure& f) {
  // The message may carry the server's text: escaped on the terminal (terminal_form.hpp).
  std::string line = "elicitgen client: " + terminal_safe(f.message);
  if (f.show_code && f.jsonrpc_error.is_object() && f.jsonrpc_error.contains("code") && f.category != "auth")
    line += " (JSON-RPC error " + f.jsonrpc_error["code"].dump() + ")";
  std::cerr << line << "\n";
  if (json_) {
    auto j = envelope("failure");
    j["category"] = f.category;
    j["message"] = f.message;
    if (!f.jsonrpc_error.is_null()) j["jsonrpc_error"] = f.jsonrpc_error;
    if (f.http_status != 0) j["http_status"] = f.http_status;
    print(j);
  }
  return exit_code_of(f.category);
}

int ClientOutput::tools(const nlohmann::json& tools, bool tasks) {
  if (json_) {
    auto j = envelope("tools");
    j["tools"] = tools;
    j["tasks"] = tasks;
    print(j);
  } else if (tools.empty()) {
    std::cerr << "elicitgen client: the server offers no tools\n";
  } else {
    std::cout << tool_table(tools);
  }
  return 0;
}

}  // namespace elicitgen
