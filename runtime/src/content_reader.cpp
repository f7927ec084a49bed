#include "elicit/content_reader.hpp"

#include <nlohmann/json.hpp>

namespace elicit::sax {

namespace {

using json = nlohmann::json;

// SAX handler for one content object. Returning false from any event stops the parse: that is
// how "not a well-typed value" is reported, and the caller takes the DOM path.
class ContentHandler {
 public:
  explicit ContentHandler(ContentReader& reader) : reader_(reader) {}

  bool null() {
    Value v;
    v.kind = Value::Kind::null;
    return value(v);
  }
  bool boolean(bool b) {
    Value v;
    v.kind = Value::Kind::boolean;
    v.b = b;
    return value(v);
  }
  bool number_integer(json::number_integer_t i) {
    Value v;
    v.kind = Value::Kind::integer;
    v.i = i;
    return value(v);
  }
  bool number_unsigned(json::number_unsigned_t u) {
    Value v;
    v.kind = Value::Kind::unsigned_integer;
    v.u = u;
    return value(v);
  }
  bool number_float(json::number_float_t d, const json::string_t&) {
    Value v;
    v.kind = Value::Kind::floating;
    v.d = d;
    return value(v);
  }
  bool string(json::string_t& s) {
    Value v;
    v.kind = Value::Kind::string;
    v.text = &s;
    return value(v);
  }
  bool binary(json::binary_t&) { return false; }

  bool start_object(std::size_t) {
    if (skip_ > 0) return ++skip_, true;
    if (state_ == State::before) {
      state_ = State::inside;
      return true;
    }
    // Objects are only allowed as the value of a property the schema does not list.
    if (state_ == State::inside && !in_array_ && field_ < 0) return skip_ = 1, true;
    return false;
  }
  bool end_object() {
    if (skip_ > 0) return --skip_, true;
    state_ = State::closed;
    return true;
  }
  bool start_array(std::size_t) {
    if (skip_ > 0) return ++skip_, true;
    if (state_ != State::inside || in_array_) return false;
    if (field_ < 0) return skip_ = 1, true;
    Value v;
    v.kind = Value::Kind::array_begin;
    if (!reader_.set(field_, v)) return false;
    in_array_ = true;
    return true;
  }
  bool end_array() {
    if (skip_ > 0) return --skip_, true;
    in_array_ = false;
    return true;
  }
  bool key(json::string_t& k) {
    if (skip_ == 0) field_ = reader_.field(k);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  /// The object has been closed (its last event went through this handler).
  bool closed() const noexcept { return state_ == State::closed; }
  bool complete() const { return closed() && reader_.complete(); }

 private:
  enum class State { before, inside, closed };

  bool value(Value& v) {
    if (skip_ > 0) return true;
    if (state_ != State::inside) return false;  // the content is not an object
    if (field_ < 0) return true;
    v.item = in_array_;
    return reader_.set(field_, v);
  }

  ContentReader& reader_;
  State state_ = State::before;
  int field_ = -1;
  bool in_array_ = false;
  std::size_t skip_ = 0;  // nesting depth inside the value of an unlisted property
};

// SAX handler for {"jsonrpc":"2.0","id":...,"result":{"action":"accept","content":{...}}} in any
// member order, handing the content's events to a ContentHandler. Anything it does not expect
// (an error, a method, a repeated envelope member, a non-accept action) stops it.
class ResponseHandler {
 public:
  explicit ResponseHandler(ContentReader& reader) : content_(reader) {}

  bool null() { return in_content() ? content_.null() : scalar(nullptr); }
  bool boolean(bool b) { return in_content() ? content_.boolean(b) : scalar(nullptr); }
  bool number_integer(json::number_integer_t i) {
    if (in_content()) return content_.number_integer(i);
    return scalar(nullptr, member_ == Member::id);
  }
  bool number_unsigned(json::number_unsigned_t u) {
    if (in_content()) return content_.number_unsigned(u);
    std::int64_t ignored = 0;
    return scalar(nullptr, member_ == Member::id && check::exact_int64(u, ignored));
  }
  bool number_float(json::number_float_t d, const json::string_t& s) {
    return in_content() ? content_.number_float(d, s) : scalar(nullptr);
  }
  bool string(json::string_t& s) {
    if (in_content()) return content_.string(s);
    return scalar(&s, member_ == Member::id);
  }
  bool binary(json::binary_t&) { return false; }

  bool start_object(std::size_t n) {
    if (in_content()) return content_.start_object(n);
    if (skip_ > 0) return ++skip_, true;
    if (depth_ == 0) return depth_ = 1, true;
    if (member_ == Member::result && depth_ == 1) return depth_ = 2, true;
    if (member_ == Member::content && depth_ == 2) {
      content_active_ = true;
      return content_.start_object(n);
    }
    if (member_ == Member::other) return skip_ = 1, true;
    return false;
  }
  bool end_object() {
    if (in_content()) {
      if (!content_.end_object()) return false;
      if (content_.closed()) content_active_ = false;
      return true;
    }
    if (skip_ > 0) return --skip_, true;
    --depth_;
    return true;
  }
  bool start_array(std::size_t n) {
    if (in_content()) return content_.start_array(n);
    if (skip_ > 0) return ++skip_, true;
    if (depth_ > 0 && member_ == Member::other) return skip_ = 1, true;
    return false;  // a batch, or an array where the envelope needs something else
  }
  bool end_array() {
    if (in_content()) return content_.end_array();
    if (skip_ > 0) return --skip_, true;
    return false;
  }
  bool key(json::string_t& k) {
    if (in_content()) return content_.key(k);
    if (skip_ > 0) return true;
    member_ = Member::other;
    if (depth_ == 1) {
      if (k == "jsonrpc") return first(Member::jsonrpc);
      if (k == "id") return first(Member::id);
      if (k == "result") return first(Member::result);
      if (k == "error" || k == "method") return false;
    } else if (depth_ == 2) {
      if (k == "action") return first(Member::action);
      if (k == "content") return first(Member::content);
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  bool accepted() const {
    return depth_ == 0 && seen(Member::result) && jsonrpc_ok_ && seen(Member::id) && accept_ && content_.complete();
  }

 private:
  enum class Member { other, jsonrpc, id, result, action, content, count };

  bool in_content() const noexcept { return content_active_; }
  bool seen(Member m) const noexcept { return seen_[static_cast<std::size_t>(m)]; }

  // A repeated envelope member: the DOM keeps the last one; leave that to the DOM path.
  bool first(Member m) {
    if (seen(m)) return false;
    seen_[static_cast<std::size_t>(m)] = true;
    member_ = m;
    return true;
  }

  // A scalar in the envelope; `usable_id` tells whether it is a usable request id.
  bool scalar(const json::string_t* s, bool usable_id = false) {
    if (skip_ > 0) return true;
    switch (member_) {
      case Member::jsonrpc:
        jsonrpc_ok_ = s != nullptr && *s == "2.0";
        return depth_ == 1 && jsonrpc_ok_;
      case Member::id:
        return depth_ == 1 && usable_id;
      case Member::action:
        accept_ = s != nullptr && *s == "accept";
        return depth_ == 2 && accept_;
      case Member::other:
        return depth_ > 0;
      default:
        return false;  // a result or content that is not an object
    }
  }

  ContentHandler content_;
  bool content_active_ = false;
  int depth_ = 0;  // 1 inside the message object, 2 inside result
  std::size_t skip_ = 0;
  Member member_ = Member::other;
  std::array<bool, static_cast<std::size_t>(Member::count)> seen_{};
  bool jsonrpc_ok_ = false;
  bool accept_ = false;
};

}  // namespace

bool read_content(std::string_view text, ContentReader& reader) {
  ContentHandler handler(reader);
  return json::sax_parse(text.begin(), text.end(), &handler) && handler.complete();
}

bool read_accepted_response(std::string_view message, ContentReader& reader) {
  ResponseHandler handler(reader);
  return json::sax_parse(message.begin(), message.end(), &handler) && handler.accepted();
}

}  // namespace elicit::sax
