#include "common/extensions/platforms/facebook/page_client.hpp"

#include "common/extensions/platforms/facebook/graph.hpp"

namespace squawk::social::facebook {
namespace {

// A change Facebook acknowledged without {success: true} did not happen.
Answer acknowledged(Answer answer, const char* what) {
    if (!answer.failure && !answer.body.value("success", false))
        answer.failure = refusal(std::string("Facebook did not change the Page's ") + what, 200);
    return answer;
}

}  // namespace

Answer PageClient::settings() {
    return read_object(api_.send(
        "GET",
        graph_path(page_.identity.external_id + "?fields=id,name,about,description,website,phone,"
                                                "emails,cover"),
        bearer(page_.credentials)));
}

Answer PageClient::post(const std::string& path, const http::FormFields& fields) {
    return read_object(api_.send("POST", graph_path(path), bearer(page_.credentials),
                                 "application/x-www-form-urlencoded", http::form_encode(fields)));
}

Answer PageClient::update(const http::FormFields& fields) {
    return acknowledged(post(page_.identity.external_id, fields), "settings");
}

Answer PageClient::set_picture(const std::string& url) {
    return acknowledged(post(page_.identity.external_id + "/picture", {{"picture", url}}),
                        "picture");
}

Answer PageClient::set_cover(const std::string& url, int offset_y) {
    auto photo =
        post(page_.identity.external_id + "/photos", {{"url", url}, {"published", "false"}});
    if (photo.failure) return photo;
    const auto photo_id = graph_id(photo.body, "id");
    if (photo_id.empty()) return {nullptr, refusal("Facebook stored the cover without an id", 200)};
    return acknowledged(post(page_.identity.external_id,
                             {{"cover", photo_id}, {"offset_y", std::to_string(offset_y)}}),
                        "cover");
}

}  // namespace squawk::social::facebook
