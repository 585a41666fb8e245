#include "workers/generate/article_task.hpp"

#include "common/core/config/config.hpp"
#include "common/domain/generation/article_request.hpp"
#include "common/domain/generation/source_page.hpp"
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

// The readable text of the request's source page. A page that cannot be used fails the job for
// good: the client gave the URL, and asking again will not make it another page.
std::string source_text(TaskContext& context, const std::string& url) {
    http::Client* client = context.http();
    if (!client) throw RetryableError("this process has no HTTP client to fetch the source page");
    const bool allow_private = context.config().security.allow_private_targets;
    const auto check = [&](const std::string& target) {
        net::CheckedTarget checked;
        context.executor().run([&] { checked = net::check_target(target, allow_private); });
        return checked;
    };
    generation::SourcePageLimits limits;
    limits.max_text_bytes = generation::kMaxSourceChars;
    try {
        return generation::fetch_source_text(*client, url, check, limits);
    } catch (const generation::SourceUnreachable& e) {
        throw PermanentError(std::string("SOURCE_UNREACHABLE: ") + e.what(),
                             {{"code", "SOURCE_UNREACHABLE"}, {"field", "source_url"}});
    }
}

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
    if (!request.source_url.empty()) {
        context.report_progress(5, "writing");
        request.source_text = source_text(context, request.source_url);
    }

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
    nlohmann::json output{{"title", article.title},
                          {"markdown", article.markdown},
                          {"html", article.html},
                          {"word_count", article.word_count},
                          {"provider", provider.name},
                          {"model", completion.model.empty() ? asked.model : completion.model},
                          {"usage",
                           {{"prompt_tokens", completion.prompt_tokens},
                            {"completion_tokens", completion.completion_tokens}}}};
    if (!request.source_url.empty()) output["source_url"] = request.source_url;
    const auto recorded = record_creation(context, job, output, {}, 1);
    return {{"article_id", recorded.public_id},
            {"title", article.title},
            {"word_count", article.word_count}};
}

}  // namespace squawk::workers::generate
