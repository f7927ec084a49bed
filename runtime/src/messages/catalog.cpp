// The message catalog over ICU: the compiled catalog (a common data package, embedded) registered
// with ICU once, one resource bundle per language, one MessageFormat per language and message,
// kept for the process's life (a few hundred, parsed on first use). A MessageFormat is used by one
// thread at a time: its format() is const but fills caches of its own (number formatters) on first
// use without a lock, which two threads at once race on (ASan saw the loser's objects leak).
#include "elicit/messages/catalog.hpp"

#include <unicode/msgfmt.h>
#include <unicode/resbund.h>
#include <unicode/udata.h>
#include <unicode/ures.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace elicit::messages {

namespace detail {
// The package pkgdata built from runtime/messages/*.txt (embedded_catalog.cpp, generated), aligned
// as ICU reads it, and the languages it has (catalog_languages.cpp, generated).
extern const unsigned char kCatalogData[];
extern const char* const kLanguages[];
extern const std::size_t kLanguageCount;
}  // namespace detail

namespace {

constexpr const char* kPackage = "elicitgen";

// ICU's name of a language's bundle: English is the root.
icu::Locale bundle_locale(const std::string& language) {
  return language == "en" ? icu::Locale::getRoot() : icu::Locale(language.c_str());
}

std::string utf8(const icu::UnicodeString& s) {
  std::string out;
  s.toUTF8String(out);
  return out;
}

// A parsed pattern and the lock its use takes.
struct Format {
  std::mutex mutex;
  std::unique_ptr<icu::MessageFormat> format;
};

class Catalog {
 public:
  Catalog() {
    UErrorCode e = U_ZERO_ERROR;
    udata_setAppData(kPackage, detail::kCatalogData, &e);
    registered_ = U_SUCCESS(e);
  }

  // The format of `id` in `language` (falling back to English), or null when no language has it.
  std::shared_ptr<Format> format(const std::string& language, std::string_view id) {
    const std::string key(id);
    std::lock_guard<std::mutex> lock(mutex_);
    // A pattern is looked up once: a miss is kept too (a null slot), so it is not looked up again.
    const auto [it, inserted] = formats_.try_emplace({language, key});
    auto& slot = it->second;
    if (!inserted) return slot;
    if (!registered_) return nullptr;
    auto* b = bundle(language);
    if (!b) return nullptr;
    UErrorCode e = U_ZERO_ERROR;
    const auto pattern = b->getStringEx(key.c_str(), e);  // a missing key falls back to the root
    if (U_FAILURE(e)) return nullptr;
    e = U_ZERO_ERROR;
    // Formatted by the language's rules (English's plural forms are not the root's).
    auto f = std::make_unique<icu::MessageFormat>(pattern, icu::Locale(language.c_str()), e);
    if (U_FAILURE(e)) return nullptr;
    slot = std::make_shared<Format>();
    slot->format = std::move(f);
    return slot;
  }

  // The pattern of `id` in `language`'s own bundle ("" when it lacks it).
  std::string own_pattern(const std::string& language, std::string_view id) {
    if (!registered_) return "";
    UErrorCode e = U_ZERO_ERROR;
    UResourceBundle* b = ures_openDirect(kPackage, language == "en" ? "root" : language.c_str(), &e);
    std::string out;
    if (U_SUCCESS(e)) {
      int32_t length = 0;
      const std::string key(id);
      const UChar* s = ures_getStringByKey(b, key.c_str(), &length, &e);
      if (U_SUCCESS(e)) out = utf8(icu::UnicodeString(s, length));
    }
    ures_close(b);
    return out;
  }

  std::vector<std::string> ids() {
    std::vector<std::string> out;
    if (!registered_) return out;
    UErrorCode e = U_ZERO_ERROR;
    icu::ResourceBundle root(kPackage, icu::Locale::getRoot(), e);
    if (U_FAILURE(e)) return out;
    root.resetIterator();
    while (root.hasNext()) {
      e = U_ZERO_ERROR;
      const auto item = root.getNext(e);
      if (U_SUCCESS(e) && item.getKey()) out.emplace_back(item.getKey());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  icu::ResourceBundle* bundle(const std::string& language) {  // under mutex_
    auto& b = bundles_[language];
    if (!b) {
      UErrorCode e = U_ZERO_ERROR;
      auto opened = std::make_unique<icu::ResourceBundle>(kPackage, bundle_locale(language), e);
      if (U_FAILURE(e)) return nullptr;
      b = std::move(opened);
    }
    return b.get();
  }

  std::mutex mutex_;
  bool registered_ = false;
  std::map<std::string, std::unique_ptr<icu::ResourceBundle>> bundles_;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Format>> formats_;
};

Catalog& catalog() {
  static Catalog c;
  return c;
}

icu::Formattable formattable(const Argument& a) {
  if (const auto* i = std::get_if<std::int64_t>(&a)) return icu::Formattable(static_cast<int64_t>(*i));
  if (const auto* d = std::get_if<double>(&a)) return icu::Formattable(*d);
  return icu::Formattable(icu::UnicodeString::fromUTF8(std::get<std::string>(a)));
}

std::string say(std::string_view language, std::string_view id,
                const std::vector<std::pair<std::string_view, const Argument*>>& args) {
  const auto format = catalog().format(resolve(language), id);
  if (!format) return std::string(id);
  std::vector<icu::UnicodeString> names;
  std::vector<icu::Formattable> values;
  names.reserve(args.size());
  values.reserve(args.size());
  for (const auto& [name, value] : args) {
    names.push_back(icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), static_cast<int32_t>(name.size()))));
    values.push_back(formattable(*value));
  }
  icu::UnicodeString out;
  UErrorCode e = U_ZERO_ERROR;
  {
    std::lock_guard<std::mutex> lock(format->mutex);
    format->format->format(names.data(), values.data(), static_cast<int32_t>(names.size()), out, e);
  }
  if (U_FAILURE(e) || out.isEmpty()) return std::string(id);
  return utf8(out);
}

}  // namespace

const std::vector<std::string>& languages() {
  static const std::vector<std::string> all(detail::kLanguages, detail::kLanguages + detail::kLanguageCount);
  return all;
}

std::string text(std::string_view language, const Message& message) {
  std::vector<std::pair<std::string_view, const Argument*>> args;
  args.reserve(message.args.size());
  for (const auto& [name, value] : message.args) args.emplace_back(name, &value);
  return say(language, message.id, args);
}

std::string text(std::string_view language, std::string_view id,
                 std::initializer_list<std::pair<std::string_view, Argument>> args) {
  std::vector<std::pair<std::string_view, const Argument*>> list;
  list.reserve(args.size());
  for (const auto& [name, value] : args) list.emplace_back(name, &value);
  return say(language, id, list);
}

std::vector<std::string> ids() { return catalog().ids(); }

std::string pattern(std::string_view language, std::string_view id) {
  return catalog().own_pattern(resolve(language), id);
}

}  // namespace elicit::messages
