#include "translation/document_translation.h"

#include <boost/json.hpp>

#include <unordered_map>

#include "identity/authorization.h"

namespace credence::translation {
namespace json = boost::json;
namespace {

bool HasCodeMark(const json::object& text_node) {
  const auto* marks = text_node.if_contains("marks");
  if (!marks || !marks->is_array()) return false;
  for (const auto& m : marks->as_array())
    if (m.is_object())
      if (const auto* t = m.as_object().if_contains("type"); t && t->is_string() && t->as_string() == "code")
        return true;
  return false;
}

// The text leaves to translate, in document order.
void CollectTexts(json::value& node, std::vector<json::string*>& out) {
  if (!node.is_object()) return;
  auto& o = node.as_object();
  const auto* type = o.if_contains("type");
  if (type && type->is_string() && type->as_string() == "codeBlock") return;
  if (type && type->is_string() && type->as_string() == "text") {
    if (auto* t = o.if_contains("text"); t && t->is_string() && !HasCodeMark(o)) out.push_back(&t->as_string());
    return;
  }
  if (auto* content = o.if_contains("content"); content && content->is_array())
    for (auto& child : content->as_array()) CollectTexts(child, out);
}

// Engines trim; the spaces around a text leaf carry the layout between marks.
std::pair<std::string, std::string> EdgeSpaces(std::string_view s) {
  size_t a = 0;
  while (a < s.size() && s[a] == ' ') ++a;
  if (a == s.size()) return {std::string(s), ""};
  size_t b = s.size();
  while (b > a && s[b - 1] == ' ') --b;
  return {std::string(s.substr(0, a)), std::string(s.substr(b))};
}

}  // namespace

bool CopiedVerbatim(const std::string& node_type, const std::optional<platform::BlockTranslation>& rule) {
  if (rule) return *rule != platform::BlockTranslation::kTranslate;
  return node_type == "codeBlock";
}

Result<std::string> TranslateNode(const Translator& translator, const std::string& node_json, const std::string& source,
                                  const std::string& target, const GlossaryInput* glossary) {
  boost::system::error_code ec;
  json::value node = json::parse(node_json, ec);
  if (ec) return Error::Internal("a stored block is not JSON");
  std::vector<json::string*> leaves;
  CollectTexts(node, leaves);
  if (leaves.empty()) return node_json;
  const bool protect = glossary && !glossary->terms.empty() && !translator.SupportsGlossaries();
  std::vector<std::string> texts;
  std::vector<std::vector<std::string>> replacements;
  for (const auto* leaf : leaves) {
    std::string text(leaf->data(), leaf->size());
    if (protect) {
      Protected p = ProtectTerms(text, glossary->terms);
      texts.push_back(std::move(p.text));
      replacements.push_back(std::move(p.replacements));
    } else {
      texts.push_back(std::move(text));
      replacements.emplace_back();
    }
  }
  CR_TRY_ASSIGN(std::vector<std::string> translated, translator.Translate(texts, source, target, glossary));
  for (size_t i = 0; i < leaves.size(); ++i) {
    auto [lead, trail] = EdgeSpaces(std::string_view(leaves[i]->data(), leaves[i]->size()));
    std::string t = RestoreTerms(translated[i], replacements[i]);
    size_t a = t.find_first_not_of(' ');
    size_t b = t.find_last_not_of(' ');
    t = a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
    *leaves[i] = lead + t + trail;
  }
  return json::serialize(node);
}

GlossaryInput MachineTranslationService::GlossaryFor(const identity::Principal& caller, const Translator& translator,
                                                     const std::string& source, const std::string& target) const {
  GlossaryInput input;
  auto list = glossaries_.List(caller);
  if (!list) return input;
  for (const auto& g : *list) {
    if (g.source_language != source || g.target_language != target) continue;
    auto full = glossaries_.Get(caller, g.id);
    if (!full) continue;
    for (const auto& t : full->terms) input.terms.push_back({t.source, t.target, t.case_sensitive});
    if (translator.SupportsGlossaries())
      if (auto id = glossaries_.ProviderGlossaryId(caller, g.id, translator.Name())) input.provider_glossary_id = *id;
  }
  return input;
}

Result<kb::FullTranslation> MachineTranslationService::TranslateEntry(
    const identity::Principal& caller, const std::string& entry_id, const std::string& language,
    const std::optional<std::string>& provider) const {
  const Translator* translator = nullptr;
  if (provider) {
    translator = translators_.Find(*provider);
  } else {
    // The tenant's choice for the language, when this server has it.
    if (auto langs = languages_.List(caller); langs)
      for (const auto& l : *langs)
        if (l.code == language && l.provider) translator = translators_.Find(*l.provider);
    if (!translator) translator = translators_.Default();
  }
  if (translators_.Empty())
    return Error::InvalidArgument("auto_translation_unavailable",
                                  "Automatic translation is not available: no translation provider is configured. "
                                  "Send the translated title and content.",
                                  {{"useAutoTranslation", "no translation provider is configured"}});
  if (!translator)
    return Error::InvalidArgument("unknown_provider", "The provider '" + *provider + "' is not configured.",
                                  {{"provider", "not a configured provider"}});
  CR_TRY_ASSIGN(auto work, translations_.PendingMachineWork(caller, entry_id, language));
  const std::string& source = work.original_language;

  std::unordered_map<std::string, platform::BlockClassification> classes;
  if (auto rules = heuristics_.List(caller); rules) {
    if (auto c = platform::ClassifyBlocks(*rules, work.original_content, "content"); c)
      for (auto& b : *c) classes.emplace(b.block_id, std::move(b));
  }
  const GlossaryInput glossary = GlossaryFor(caller, *translator, source, language);

  std::vector<kb::TranslationService::MachineBlock> out;
  for (const auto& block : work.blocks) {
    std::optional<platform::BlockTranslation> rule;
    std::string node_type;
    if (auto it = classes.find(block.block_id); it != classes.end()) {
      node_type = it->second.node_type;
      if (it->second.block_class) rule = it->second.translation;
    }
    std::string node = block.node_json;
    if (!CopiedVerbatim(node_type, rule)) {
      CR_TRY_ASSIGN(node, TranslateNode(*translator, block.node_json, source, language, &glossary));
    }
    out.push_back({block.block_id, block.hash, std::move(node)});
  }
  std::string title;
  if (!work.exists) {
    std::vector<std::string> texts{work.original_title};
    Protected p;
    if (!glossary.terms.empty() && !translator->SupportsGlossaries()) {
      p = ProtectTerms(work.original_title, glossary.terms);
      texts[0] = p.text;
    }
    CR_TRY_ASSIGN(auto t, translator->Translate(texts, source, language, &glossary));
    title = RestoreTerms(t.at(0), p.replacements);
    if (title.empty()) title = work.original_title;
  }
  return translations_.SaveMachineTranslation(caller, entry_id, language, title, out);
}

Result<MachineTranslationService::SyncedGlossary> MachineTranslationService::SyncGlossary(
    const identity::Principal& caller, const std::string& id, const std::optional<std::string>& provider) const {
  if (translators_.Empty()) {
    CR_TRY(glossaries_.Sync(caller, id));  // 403, 404, or 409 no_translation_provider
  }
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const Translator* translator = nullptr;
  if (provider) {
    translator = translators_.Find(*provider);
    if (!translator)
      return Error::InvalidArgument("unknown_provider", "The provider '" + *provider + "' is not configured.",
                                    {{"provider", "not a configured provider"}});
  } else {
    translator = translators_.Find("deepl");
    if (!translator) translator = translators_.Default();
  }
  CR_TRY_ASSIGN(platform::Glossary g, glossaries_.Get(caller, id));
  std::vector<Term> terms;
  for (const auto& t : g.terms) terms.push_back({t.source, t.target, t.case_sensitive});
  CR_TRY_ASSIGN(std::string provider_id,
                translator->SyncGlossary("credence-" + g.id, g.source_language, g.target_language, terms));
  CR_TRY(glossaries_.RecordProviderGlossary(caller, id, translator->Name(), provider_id));
  return SyncedGlossary{std::string(translator->Name()), provider_id};
}

}  // namespace credence::translation
