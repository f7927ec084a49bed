// Several ServerObservers as one (elicit/ops/observers.hpp).
#include "elicit/ops/observers.hpp"

#include <algorithm>

namespace elicit::ops {

namespace {

class ObserverList final : public ServerObserver {
 public:
  explicit ObserverList(std::vector<std::shared_ptr<ServerObserver>> list) : list_(std::move(list)) {}
  void request_ended(const RequestRecord& record) override {
    for (const auto& o : list_) {
      try {
        o->request_ended(record);
      } catch (...) {  // one observer's failure must not silence the others
      }
    }
  }
  void request_refused(unsigned status, std::string_view reason) override {
    for (const auto& o : list_) {
      try {
        o->request_refused(status, reason);
      } catch (...) {
      }
    }
  }

 private:
  std::vector<std::shared_ptr<ServerObserver>> list_;
};

}  // namespace

std::shared_ptr<ServerObserver> observers(std::vector<std::shared_ptr<ServerObserver>> list) {
  list.erase(std::remove(list.begin(), list.end(), nullptr), list.end());
  return std::make_shared<ObserverList>(std::move(list));
}

}  // namespace elicit::ops
