#include "workers/generate/article_task.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/generation/article_request.hpp"
#include "common/extensions/providers/registered.hpp"
#include "workers/errors.hpp"
#include "workers/generate/created_files.hpp"
#include "workers/generate/job_provider_calls.hpp"
#include "workers/generate/provider_call.hpp"

#include <stdexcept>

namespace squawk::workers::generate {
namespace {

// Room for the longest article asked for; a token is about three quarters of a word.
constexpr int kTokensPerWord = 2;

}  // namespace

nlohmann::json ArticleTask::run(const jobs::ClaimedJob& job, TaskContext& context) {
    generation::ArticleRequest request;
    try {
        request = generation::ArticleRequest::from_json(job.payload);
    } catch (const std::invalid_argument& e) {
        throw PermanentError(e.what());
    }
    const auto& config = context.config();
    const auto provider = configured<generation::TextProvider>(config);

    generation::TextRequest asked;
    asked.model = request.model;
    asked.messages = generation::article_messages(request);
    asked.max_tokens = generation::target_words(request.length) * kTokensPerWord;
    asked.idempotency_key = job.public_id;
    context.report_progress(10, "writing");
    const auto completion = [&] {
        JobProviderCalls calls(context);
        return call_provider([&] { return provider.instance->complete(asked, calls); });
    }();
    if (completion.text.empty()) throw RetryableError("the text provider answered no text");

    const auto article = generation::read_article(
        completion.text, request.topic.empty() ? std::string("Untitled") : request.topic);
    const nlohmann::json output{
        {"title", article.title},
        {"markdown", article.markdown},
        {"html", article.html},
        {"word_count", article.word_count},
        {"provider", provider.name},
        {"model", completion.model.empty() ? asked.model : completion.model},
        {"usage",
         {{"prompt_tokens", completion.prompt_tokens},
          {"completion_tokens", completion.completion_tokens}}}};
    const auto recorded = record_creation(context, job, output, {});
    return {{"article_id", recorded.public_id},
            {"title", article.title},
            {"word_count", article.word_count}};
}

}  // namespace squawk::workers::generate
