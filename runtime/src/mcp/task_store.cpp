// Task records and the in-memory task store (tasks.hpp).
#include <sodium.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <utility>
#include <vector>

#include "elicit/tasks.hpp"
#include "json_fast.hpp"

namespace elicit {

std::string_view to_string(TaskStatus status) noexcept {
  switch (status) {
    case TaskStatus::working:
      return "working";
    case TaskStatus::input_required:
      return "input_required";
    case TaskStatus::completed:
      return "completed";
    case TaskStatus::failed:
      return "failed";
    case TaskStatus::cancelled:
      return "cancelled";
  }
  return "working";
}

namespace {

TaskStatus status_from(const std::string& s) {
  for (auto t : {TaskStatus::working, TaskStatus::input_required, TaskStatus::completed, TaskStatus::failed,
                 TaskStatus::cancelled}) {
    if (to_string(t) == s) return t;
  }
  throw std::invalid_argument("not a task status: " + s);
}

}  // namespace

std::string new_task_id() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
  std::array<unsigned char, 32> raw{};
  randombytes_buf(raw.data(), raw.size());
  std::array<char, 64> out{};
  sodium_bin2base64(out.data(), out.size(), raw.data(), raw.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  return out.data();
}

std::int64_t unix_time_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string iso8601_utc(std::int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::array<char, 40> out{};
  const auto n = std::strftime(out.data(), out.size(), "%Y-%m-%dT%H:%M:%S", &tm);
  std::array<char, 8> millis{};
  std::snprintf(millis.data(), millis.size(), ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(out.data(), n) + millis.data();
}

// --- TaskStore defaults and TaskWatchers ----------------------------------------------------------

std::shared_ptr<void> TaskStore::watch(const std::string&, std::function<void(TaskStatus)>) { return nullptr; }

std::shared_ptr<void> TaskStore::hold_lease(const TaskRecord&) { return nullptr; }

struct TaskWatchers::State {
  mutable std::mutex mutex;
  std::uint64_t next = 0;
  // key -> (registration, callback); shared so that notify() calls them outside the lock.
  std::multimap<std::string, std::pair<std::uint64_t, std::shared_ptr<const std::function<void(TaskStatus)>>>> by_key;
};

TaskWatchers::TaskWatchers() : state_(std::make_shared<State>()) {}

std::shared_ptr<void> TaskWatchers::add(const std::string& key, std::function<void(TaskStatus)> changed) {
  const auto callback = std::make_shared<const std::function<void(TaskStatus)>>(std::move(changed));
  std::uint64_t n = 0;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    n = ++state_->next;
    state_->by_key.emplace(key, std::make_pair(n, callback));
  }
  // The handle unregisters; it may outlive the watchers (weak).
  std::weak_ptr<State> weak = state_;
  return std::shared_ptr<void>(new int(0), [weak, key, n](int* p) {
    delete p;
    if (const auto state = weak.lock()) {
      std::lock_guard<std::mutex> lock(state->mutex);
      const auto range = state->by_key.equal_range(key);
      for (auto it = range.first; it != range.second; ++it) {
        if (it->second.first == n) {
          state->by_key.erase(it);
          break;
        }
      }
    }
  });
}

void TaskWatchers::notify(const std::string& key, TaskStatus status) const {
  std::vector<std::shared_ptr<const std::function<void(TaskStatus)>>> callbacks;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    const auto range = state_->by_key.equal_range(key);
    for (auto it = range.first; it != range.second; ++it) callbacks.push_back(it->second.second);
  }
  for (const auto& c : callbacks) {
    try {
      (*c)(status);
    } catch (...) {
      // A watcher's failure is its own; the others still hear of the change.
    }
  }
}

std::size_t TaskWatchers::size() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->by_key.size();
}

// --- Records ---------------------------------------------------------------------------------------

nlohmann::json TaskRecord::to_json() const {
  return nlohmann::json{{"id", id},
                        {"owner", owner},
                        {"status", std::string(to_string(status))},
                        {"statusMessage", status_message},
                        {"created", created_ms},
                        {"updated", updated_ms},
                        {"expires", expires_ms},
                        {"ttl", ttl_ms},
                        {"poll", poll_interval_ms},
                        {"request", request},
                        {"requestState", request_state},
                        {"answers", answers},
                        // As text: the questions keep the order they (and their schemas' properties)
                        // were written in.
                        {"inputRequests", input_requests.dump()},
                        {"keyMap", key_map},
                        {"usedKeys", used_keys},
                        {"result", result},
                        {"error", error},
                        {"run", run},
                        {"lease", lease_expires_ms},
                        {"released", run_released}};
}

TaskRecord TaskRecord::from_json(const nlohmann::json& j) {
  TaskRecord t;
  t.id = j.at("id").get<std::string>();
  t.owner = j.at("owner").get<std::string>();
  t.status = status_from(j.at("status").get<std::string>());
  t.status_message = j.at("statusMessage").get<std::string>();
  t.created_ms = j.at("created").get<std::int64_t>();
  t.updated_ms = j.at("updated").get<std::int64_t>();
  t.expires_ms = j.at("expires").get<std::int64_t>();
  t.ttl_ms = j.at("ttl").get<std::int64_t>();
  t.poll_interval_ms = j.at("poll").get<std::int64_t>();
  t.request = j.at("request");
  t.request_state = j.at("requestState").get<std::string>();
  t.answers = j.at("answers");
  t.input_requests = nlohmann::ordered_json::parse(j.at("inputRequests").get<std::string>());
  t.key_map = j.at("keyMap");
  t.used_keys = j.at("usedKeys");
  t.result = j.at("result");
  t.error = j.at("error");
  t.run = j.at("run").get<std::uint64_t>();
  t.lease_expires_ms = j.value("lease", std::int64_t{0});
  t.run_released = j.value("released", false);  // absent in records of earlier versions
  return t;
}

namespace {

// TaskRecord::bytes() but for its JSON members (their dump()s): the strings that grow with use, and
// the fixed members as a small constant. InMemoryTaskStore::pack() adds the members it wrote.
std::size_t bytes_besides_json(const TaskRecord& t) {
  return 256 + t.id.size() + t.owner.size() + t.status_message.size() + t.request_state.size();
}

}  // namespace

std::size_t TaskRecord::bytes() const {
  return bytes_besides_json(*this) + request.dump().size() + answers.dump().size() + input_requests.dump().size() +
         key_map.dump().size() + used_keys.dump().size() + result.dump().size() + error.dump().size();
}

InMemoryTaskStore::InMemoryTaskStore(TaskOptions options) : InMemoryTaskStore(std::move(options), unix_time_ms) {}

InMemoryTaskStore::InMemoryTaskStore(TaskOptions options, std::function<std::int64_t()> now_ms)
    : options_(std::move(options)), now_ms_(std::move(now_ms)) {
  if (options_.ttl.count() <= 0) throw std::invalid_argument("TaskOptions::ttl must be positive");
  if (options_.poll_interval.count() <= 0) throw std::invalid_argument("TaskOptions::poll_interval must be positive");
  if (!now_ms_) throw std::invalid_argument("InMemoryTaskStore needs a clock");
}

InMemoryTaskStore::Entry InMemoryTaskStore::pack(TaskRecord record) {
  Entry e;
  // Each member written as TaskRecord::bytes() dumps it (append_dump: dump()'s bytes, and its
  // type_error for a string that is not UTF-8), so the entry's bytes are the record's.
  constexpr auto strict = nlohmann::json::error_handler_t::strict;
  e.members.push_back('[');
  for (const auto* member :
       {&record.request, &record.answers, &record.key_map, &record.used_keys, &record.result, &record.error}) {
    if (e.members.size() > 1) e.members.push_back(',');
    jsonrpc::detail::append_dump(e.members, *member, strict);
  }
  e.members.push_back(']');
  e.members.shrink_to_fit();  // kept for as long as the task: no room to grow
  jsonrpc::detail::append_dump(e.input_requests, record.input_requests, strict);
  e.input_requests.shrink_to_fit();
  e.bytes = bytes_besides_json(record) + (e.members.size() - 7) + e.input_requests.size();  // less "[" "]" ","s
  record.id = std::string();
  record.request = record.answers = record.key_map = record.used_keys = record.result = record.error = nullptr;
  record.input_requests = nullptr;
  e.head = std::move(record);
  return e;
}

TaskRecord InMemoryTaskStore::unpack(const std::string& id, Entry entry) {
  TaskRecord r = std::move(entry.head);
  r.id = id;
  auto members = jsonrpc::detail::parse_json(entry.members);
  auto& m = members.get_ref<nlohmann::json::array_t&>();
  r.request = std::move(m.at(0));
  r.answers = std::move(m.at(1));
  r.key_map = std::move(m.at(2));
  r.used_keys = std::move(m.at(3));
  r.result = std::move(m.at(4));
  r.error = std::move(m.at(5));
  r.input_requests = nlohmann::ordered_json::parse(entry.input_requests);
  return r;
}

void InMemoryTaskStore::drop_expired(std::int64_t now) {
  while (!by_expiry_.empty() && by_expiry_.begin()->first <= now) {
    const auto it = tasks_.find(by_expiry_.begin()->second);
    if (it != tasks_.end()) {
      bytes_ -= it->second.bytes;
      tasks_.erase(it);
    }
    by_expiry_.erase(by_expiry_.begin());
  }
}

bool InMemoryTaskStore::create(const TaskRecord& task) {
  auto entry = pack(task);
  const auto size = entry.bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  drop_expired(now_ms_());
  if (tasks_.count(task.id) != 0) throw std::invalid_argument("a task with this id exists");
  if (tasks_.size() >= options_.max_tasks || bytes_ + size > options_.max_bytes) return false;
  tasks_.emplace(task.id, std::move(entry));
  by_expiry_.emplace(task.expires_ms, task.id);
  bytes_ += size;
  return true;
}

std::optional<TaskRecord> InMemoryTaskStore::get(const std::string& id) {
  Entry entry;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    drop_expired(now_ms_());
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) return std::nullopt;
    entry = it->second;
  }
  return unpack(id, std::move(entry));  // parsed outside the lock
}

std::optional<TaskRecord> InMemoryTaskStore::update(const std::string& id,
                                                    const std::function<bool(TaskRecord&)>& change) {
  TaskRecord copy;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    drop_expired(now_ms_());
    const auto it = tasks_.find(id);
    if (it == tasks_.end()) return std::nullopt;
    copy = unpack(it->first, it->second);
    if (!change(copy)) return unpack(it->first, it->second);
    // The id and expiry belong to the store: a change cannot move them.
    copy.id = it->first;
    copy.expires_ms = it->second.head.expires_ms;
    auto entry = pack(copy);
    // A record may grow past the bound by what one run adds (its answers, its result): refusing
    // it would leave the task stuck. The bound holds for creation.
    bytes_ = bytes_ - it->second.bytes + entry.bytes;
    it->second = std::move(entry);
  }
  watchers_.notify(id, copy.status);  // outside the lock: a watcher may read the store
  return copy;
}

std::shared_ptr<void> InMemoryTaskStore::watch(const std::string& id, std::function<void(TaskStatus)> changed) {
  return watchers_.add(id, std::move(changed));
}

std::optional<std::array<std::size_t, 5>> InMemoryTaskStore::count_by_status() {
  std::array<std::size_t, 5> counts{};
  std::lock_guard<std::mutex> lock(mutex_);
  drop_expired(now_ms_());
  for (const auto& [id, entry] : tasks_) ++counts[static_cast<std::size_t>(entry.head.status)];
  return counts;
}

std::size_t InMemoryTaskStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return tasks_.size();
}

std::size_t InMemoryTaskStore::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

}  // namespace elicit
