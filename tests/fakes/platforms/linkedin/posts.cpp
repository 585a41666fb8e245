// LinkedIn's Posts API as the fake serves it: posts created (201 with x-restli-id) by their author
// (the member, or a page they administer) after their commentary parses as little text of at most
// 3,000 characters and their content names media of the author that is ready, PARTIAL_UPDATE of the
// commentary, DELETE, GET by URN, the author finder (which needs r_member_social), and the counts:
// socialActions and memberFollowersCount.
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

#include <algorithm>

namespace squawk::fakes::platforms::linkedin {
namespace {

constexpr size_t kMaxCommentaryChars = 3000;
constexpr size_t kMinImages = 2;
constexpr size_t kMaxImages = 20;
constexpr std::string_view kReserved = "|{}@[]()<>#\\*_~";
constexpr std::string_view kPosts = "/rest/posts";
constexpr std::string_view kSocialActions = "/rest/socialActions/";

// The text little `commentary` shows, or where a reserved character stands unescaped outside an
// element (a mention @[Name](urn:li:person:1), a hashtag template {hashtag|#|tag}, a #tag).
struct Little {
    std::string text;
    std::optional<size_t> stray;  // the byte offset of the first unescaped reserved character
};

Little parse_little(std::string_view commentary) {
    Little out;
    for (size_t i = 0; i < commentary.size(); ++i) {
        const char c = commentary[i];
        if (c == '\\' && i + 1 < commentary.size() &&
            kReserved.find(commentary[i + 1]) != std::string_view::npos) {
            out.text += commentary[++i];
            continue;
        }
        if (c == '#') {
            out.text += c;
            continue;
        }
        if (c == '@' && commentary.substr(i + 1, 1) == "[") {
            const auto close = commentary.find("](urn:li:", i + 2);
            const auto end = close == std::string_view::npos ? close : commentary.find(')', close);
            if (end != std::string_view::npos) {
                out.text += commentary.substr(i + 2, close - i - 2);
                i = end;
                continue;
            }
        }
        if (commentary.substr(i).starts_with("{hashtag|")) {
            const auto sign = i + 9;
            const auto bar = commentary.find('|', sign);
            const auto end = bar == std::string_view::npos ? bar : commentary.find('}', bar);
            if (end != std::string_view::npos) {
                out.text += commentary.substr(sign, bar - sign);
                out.text += commentary.substr(bar + 1, end - bar - 1);
                i = end;
                continue;
            }
        }
        if (kReserved.find(c) != std::string_view::npos) {
            out.stray = i;
            return out;
        }
        out.text += c;
    }
    return out;
}

size_t code_points(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::optional<HttpAnswer> commentary_problem(const json& commentary) {
    if (!commentary.is_string())
        return unprocessable(
            "ERROR :: /commentary :: field is required but not found and has no "
            "default value");
    const auto little = parse_little(commentary.get<std::string>());
    if (little.stray)
        return unprocessable("ERROR :: /commentary :: reserved character '" +
                             std::string(1, commentary.get<std::string>()[*little.stray]) +
                             "' at offset " + std::to_string(*little.stray) + " is not escaped");
    if (const auto length = code_points(little.text); length > kMaxCommentaryChars)
        return unprocessable("ERROR :: /commentary :: length " + std::to_string(length) +
                             " exceeds the maximum allowed length of " +
                             std::to_string(kMaxCommentaryChars));
    return std::nullopt;
}

// content: {media: {id, title?}}, {multiImage: {images: [{id}]}} or {article: {source, title}}.
std::optional<HttpAnswer> content_problem(const json& content, const std::string& author) {
    if (!content.is_object() || content.size() != 1)
        return unprocessable("ERROR :: /content :: exactly one kind of content is allowed");
    if (content.contains("media")) {
        const json& media = content["media"];
        const auto kind = ready_media(media.value("id", ""), author);
        if (!kind)
            return unprocessable("ERROR :: /content/media/id :: " + media.value("id", "") +
                                 " is not an available asset of the author");
        if (*kind == "document" && media.value("title", "").empty())
            return unprocessable("ERROR :: /content/media/title :: a document needs a title");
        return std::nullopt;
    }
    if (content.contains("multiImage")) {
        const json images = content["multiImage"].value("images", json::array());
        if (!images.is_array() || images.size() < kMinImages || images.size() > kMaxImages)
            return unprocessable(
                "ERROR :: /content/multiImage/images :: between 2 and 20 images "
                "are allowed");
        for (const auto& image : images)
            if (ready_media(image.value("id", ""), author) != "image")
                return unprocessable("ERROR :: /content/multiImage/images :: " +
                                     image.value("id", "") + " is not an available image");
        return std::nullopt;
    }
    if (content.contains("article")) {
        const json& article = content["article"];
        const std::string source = article.value("source", "");
        if (!source.starts_with("https://") && !source.starts_with("http://"))
            return unprocessable("ERROR :: /content/article/source :: must be a URL");
        if (article.value("title", "").empty())
            return unprocessable("ERROR :: /content/article/title :: field is required");
        return std::nullopt;
    }
    return unprocessable("ERROR :: /content :: unknown content type");
}

}  // namespace

json* find_post(const std::string& urn) {
    for (auto& post : state().posts)
        if (post["id"] == urn) return &post;
    return nullptr;
}

namespace {

// A post as the API shows it: without the counts the fake keeps beside it.
json shown(json post) {
    for (const char* count : kPostCounts) post.erase(count);
    return post;
}

// GET /rest/posts/{urn}: a post its reader may see (their own, or a page's they administer).
HttpAnswer read_post(const std::string& urn, const Grant& grant) {
    const json* post = find_post(urn);
    if (!post) return error(404, 0, "NOT_FOUND", "Not Found");
    if (!acts_as((*post)["author"], grant))
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to read " + urn);
    return json_answer(200, shown(*post));
}

json new_post(const std::string& author, const std::string& commentary) {
    const long long now = unix_now_ms();
    json post = {
        {"id", "urn:li:share:" + std::to_string(7'200'000'000'000'000'000LL + next_message_id())},
        {"author", author},
        {"commentary", commentary},
        {"visibility", "PUBLIC"},
        {"distribution",
         {{"feedDistribution", "MAIN_FEED"},
          {"targetEntities", json::array()},
          {"thirdPartyDistributionChannels", json::array()}}},
        {"lifecycleState", "PUBLISHED"},
        {"isReshareDisabledByAuthor", false},
        {"createdAt", now},
        {"publishedAt", now},
        {"lastModifiedAt", now},
    };
    for (const char* count : kPostCounts) post[count] = 0;
    return post;
}

HttpAnswer create_post(const HttpRequest& request, const Grant& grant) {
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error(400, 0, "BAD_REQUEST", "The body is not a JSON object");
    const std::string author = body.value("author", "");
    if (!acts_as(author, grant))
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to post as " + author);
    if (auto problem = commentary_problem(body.value("commentary", json()))) return *problem;
    const std::string visibility = body.value("visibility", "");
    if (visibility != "PUBLIC" && visibility != "CONNECTIONS" && visibility != "LOGGED_IN")
        return unprocessable("ERROR :: /visibility :: must be PUBLIC, CONNECTIONS or LOGGED_IN");
    if (body.value("lifecycleState", "") != "PUBLISHED")
        return unprocessable("ERROR :: /lifecycleState :: must be PUBLISHED");
    const json distribution = body.value("distribution", json::object());
    const std::string feed =
        distribution.is_object() ? distribution.value("feedDistribution", "") : "";
    if (feed != "MAIN_FEED" && feed != "NONE")
        return unprocessable(
            "ERROR :: /distribution/feedDistribution :: field is required but "
            "not found and has no default value");
    if (body.contains("content")) {
        if (auto problem = content_problem(body["content"], author)) return *problem;
    } else if (body["commentary"] == "") {
        return unprocessable("ERROR :: /commentary :: a post without content needs commentary");
    }
    json post = new_post(author, body["commentary"]);
    post["visibility"] = visibility;
    if (body.contains("content")) post["content"] = body["content"];
    state().posts.push_back(post);
    publish_log("linkedin", body["commentary"]);
    HttpAnswer answer;
    answer.status = 201;
    answer.headers = {{"x-restli-id", post["id"].get<std::string>()}};
    return answer;
}

// The post named by the path, when it is the member's: nullptr and the answer otherwise.
std::variant<json*, HttpAnswer> own_post(const std::string& urn, const Grant& grant) {
    json* post = find_post(urn);
    if (!post) return error(404, 0, "NOT_FOUND", "Not Found");
    if (!acts_as((*post)["author"].get<std::string>(), grant))
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to change " + urn);
    return post;
}

HttpAnswer update_post(const HttpRequest& request, const std::string& urn, const Grant& grant) {
    auto found = own_post(urn, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&found)) return *refusal;
    json& post = *std::get<json*>(found);
    const json body = json::parse(request.body, nullptr, false);
    const json set = body.is_object() && body.contains("patch") && body["patch"].is_object()
                         ? body["patch"].value("$set", json())
                         : json();
    if (!set.is_object() || set.empty())
        return error(400, 0, "BAD_REQUEST", "A PARTIAL_UPDATE needs {patch: {$set: {...}}}");
    for (const auto& [name, value] : set.items())
        if (name != "commentary" && name != "contentCallToActionLabel" &&
            name != "contentLandingPage" && name != "lifecycleStateInfo" && name != "adContext")
            return unprocessable("ERROR :: /patch/$set/" + name + " :: field cannot be updated");
    if (set.contains("commentary")) {
        if (auto problem = commentary_problem(set["commentary"])) return *problem;
        post["commentary"] = set["commentary"];
    }
    post["lastModifiedAt"] = std::max(unix_now_ms(), post["createdAt"].get<long long>() + 1);
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

HttpAnswer delete_post(const std::string& urn, const Grant& grant) {
    auto found = own_post(urn, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&found)) return *refusal;
    auto& posts = state().posts;
    posts.erase(std::remove_if(posts.begin(), posts.end(),
                               [&](const json& post) { return post["id"] == urn; }),
                posts.end());
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

// GET /rest/posts?q=author&author=...: the author's posts, newest first by sortBy.
HttpAnswer find_by_author(const HttpRequest& request, const Grant& grant) {
    const auto params = request.parameters();
    const auto param = [&](const char* name) {
        const auto found = params.find(name);
        return found == params.end() ? std::string() : found->second;
    };
    if (param("q") != "author")
        return error(400, 0, "BAD_REQUEST", "Unsupported finder " + param("q"));
    const auto method = request.headers.find("x-restli-method");
    if (method == request.headers.end() || method->second != "FINDER")
        return error(400, 0, "BAD_REQUEST", "A finder needs X-RestLi-Method: FINDER");
    const std::string author = param("author");
    if (!acts_as(author, grant))
        return error(403, 100, "ACCESS_DENIED",
                     "Not enough permissions to read posts of " + author);
    const std::string sort = param("sortBy").empty() ? "LAST_MODIFIED" : param("sortBy");
    if (sort != "LAST_MODIFIED" && sort != "CREATED")
        return error(400, 0, "BAD_REQUEST", "sortBy must be LAST_MODIFIED or CREATED");
    const long long count = param("count").empty() ? 10 : std::atoll(param("count").c_str());
    if (count < 1 || count > 100) return error(400, 0, "BAD_REQUEST", "count must be 1 to 100");
    // Newest first among posts of the same instant too.
    std::vector<json> mine;
    for (auto post = state().posts.rbegin(); post != state().posts.rend(); ++post)
        if ((*post)["author"] == author) mine.push_back(*post);
    const char* key = sort == "CREATED" ? "createdAt" : "lastModifiedAt";
    std::stable_sort(mine.begin(), mine.end(),
                     [&](const json& a, const json& b) { return a[key] > b[key]; });
    json elements = json::array();
    for (auto& post : mine) {
        if (static_cast<long long>(elements.size()) == count) break;
        elements.push_back(shown(std::move(post)));
    }
    return json_answer(200,
                       {{"elements", elements},
                        {"paging", {{"start", 0}, {"count", count}, {"links", json::array()}}}});
}

HttpAnswer social_actions(const std::string& urn) {
    const json* post = find_post(urn);
    if (!post) return error(404, 0, "NOT_FOUND", "Not Found");
    const long long likes = (*post)["likes"];
    const long long comments = (*post)["comments"];
    return json_answer(
        200,
        {{"target", urn},
         {"likesSummary",
          {{"totalLikes", likes}, {"aggregatedTotalLikes", likes}, {"likedByCurrentUser", false}}},
         {"commentsSummary",
          {{"aggregatedTotalComments", comments}, {"totalFirstLevelComments", comments}}}});
}

}  // namespace

json store_native_post(const std::string& member, const std::string& text) {
    std::string commentary;
    for (const char c : text) {
        if (c != '#' && kReserved.find(c) != std::string_view::npos) commentary += '\\';
        commentary += c;
    }
    json post = new_post(person_urn(member), commentary);
    state().posts.push_back(post);
    return post;
}

std::optional<HttpAnswer> serve_posts(const HttpRequest& request, const std::string& path) {
    const auto method = request.headers.count("x-restli-method")
                            ? request.headers.at("x-restli-method")
                            : std::string();
    if (path == kPosts && request.method == "POST")
        return with_grant(request, {"w_member_social"}, "partnerApiPostsExternal.CREATE.20261001",
                          [&](const Grant& grant) { return create_post(request, grant); });
    if (path == kPosts && request.method == "GET")
        return with_grant(request, {"r_member_social"},
                          "partnerApiPostsExternal.FINDER-author.20261001",
                          [&](const Grant& grant) { return find_by_author(request, grant); });
    if (path.starts_with(std::string(kPosts) + "/")) {
        const auto urn = url_decode(path.substr(kPosts.size() + 1));
        if (request.method == "POST" && method == "PARTIAL_UPDATE")
            return with_grant(request, {"w_member_social"},
                              "partnerApiPostsExternal.PARTIAL_UPDATE.20261001",
                              [&](const Grant& grant) { return update_post(request, urn, grant); });
        if (request.method == "DELETE")
            return with_grant(request, {"w_member_social"},
                              "partnerApiPostsExternal.DELETE.20261001",
                              [&](const Grant& grant) { return delete_post(urn, grant); });
        if (request.method == "GET")
            return with_grant(request, {}, "partnerApiPostsExternal.GET.20261001",
                              [&](const Grant& grant) {
                                  if (!has(grant.scopes, "r_member_social") &&
                                      !has(grant.scopes, "r_organization_social"))
                                      return error(403, 100, "ACCESS_DENIED",
                                                   "Not enough permissions to access: "
                                                   "partnerApiPostsExternal.GET.20261001");
                                  return read_post(urn, grant);
                              });
        return error(400, 0, "BAD_REQUEST", "Unsupported method on a post");
    }
    if (request.method == "GET" && path.starts_with(kSocialActions))
        return with_grant(request, {}, "socialActions.GET.20261001", [&](const Grant& grant) {
            // A page's posts are read with the organization scope, a member's with their own.
            const auto urn = url_decode(path.substr(kSocialActions.size()));
            const json* post = find_post(urn);
            const bool page =
                post && (*post)["author"].get<std::string>().starts_with("urn:li:organization:");
            if (!has(grant.scopes, "r_member_social") &&
                !(page && has(grant.scopes, "r_organization_social")))
                return error(403, 100, "ACCESS_DENIED",
                             "Not enough permissions to access: socialActions.GET.20261001");
            return social_actions(urn);
        });
    if (request.method == "GET" && path == "/rest/memberFollowersCount")
        return with_grant(
            request, {"r_member_profileAnalytics"}, "memberFollowersCount.FINDER-me.20261001",
            [&](const Grant& grant) {
                if (request.query("q") != "me")
                    return error(400, 0, "BAD_REQUEST", "Unsupported finder");
                return json_answer(
                    200, {{"elements",
                           {{{"memberFollowersCount",
                              state().members[grant.member].value("followers", 0LL)}}}},
                          {"paging", {{"start", 0}, {"count", 10}, {"links", json::array()}}}});
            });
    return std::nullopt;
}

}  // namespace squawk::fakes::platforms::linkedin
