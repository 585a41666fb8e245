// What the dashboard's end-to-end tests share: a browser's part of HTTP (a cookie jar, forms
// posted as a browser posts them, no redirect followed) and dashboard users made by squawkctl.
// The answers are HTML pages, not API operations: they are not logged for the OpenAPI check.
#pragma once

#include "common/core/http/form_encoding.hpp"
#include "tests/support/stack.hpp"

#include <curl/curl.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace squawk::testing {

struct PageAnswer {
    long status = 0;
    std::vector<std::pair<std::string, std::string>> headers;  // names in lower case, in order
    std::string body;

    // The first value of the header `lower_case_name`, or empty.
    std::string header(const std::string& lower_case_name) const {
        for (const auto& [name, value] : headers)
            if (name == lower_case_name) return value;
        return {};
    }
    std::vector<std::string> all(const std::string& lower_case_name) const {
        std::vector<std::string> values;
        for (const auto& [name, value] : headers)
            if (name == lower_case_name) values.push_back(value);
        return values;
    }
    // The CSRF token of the page's first form.
    std::string csrf() const {
        std::smatch m;
        if (!std::regex_search(body, m, std::regex(R"(name="csrf" value="([^"]+)\")")))
            throw std::runtime_error("the page has no form with a CSRF token:\n" + body);
        return m[1];
    }
};

class Browser {
  public:
    explicit Browser(std::string base_url) : base_url_(std::move(base_url)) {
        curl_ = curl_easy_init();
        if (!curl_) throw std::runtime_error("curl_easy_init failed");
        curl_easy_setopt(curl_, CURLOPT_COOKIEFILE, "");  // an empty jar of the handle's own
    }
    ~Browser() { curl_easy_cleanup(curl_); }
    Browser(const Browser&) = delete;
    Browser& operator=(const Browser&) = delete;

    PageAnswer get(const std::string& path) { return send("GET", path, std::nullopt); }
    PageAnswer post(const std::string& path, const http::FormFields& fields) {
        return send("POST", path, http::form_encode(fields));
    }

    // The value of the cookie `name` the jar holds, or empty.
    std::string cookie(const std::string& name) {
        curl_slist* list = nullptr;
        curl_easy_getinfo(curl_, CURLINFO_COOKIELIST, &list);
        std::string value;
        for (auto* item = list; item; item = item->next) {
            // Netscape format: domain, subdomains, path, secure, expiry, name, value.
            std::vector<std::string> parts;
            std::string line = item->data;
            for (size_t at = 0;;) {
                const size_t tab = line.find('\t', at);
                parts.push_back(line.substr(at, tab - at));
                if (tab == std::string::npos) break;
                at = tab + 1;
            }
            if (parts.size() >= 7 && parts[5] == name) value = parts[6];
        }
        curl_slist_free_all(list);
        return value;
    }
    // Puts a cookie in the jar as if the server had set it (an attacker's planted session id).
    void plant_cookie(const std::string& name, const std::string& value) {
        const std::string host = base_url_.substr(base_url_.find("//") + 2);
        curl_easy_setopt(curl_, CURLOPT_COOKIELIST,
                         (host.substr(0, host.find(':')) + "\tFALSE\t/dashboard\tFALSE\t0\t" +
                          name + "\t" + value)
                             .c_str());
    }

    // Signs in through the form as a browser does: the form first, then the post.
    PageAnswer sign_in(const std::string& email, const std::string& password) {
        const auto form = get("/dashboard/login");
        return post("/dashboard/login",
                    {{"csrf", form.csrf()}, {"email", email}, {"password", password}});
    }

  private:
    static size_t append_body(char* data, size_t size, size_t count, void* user) {
        static_cast<std::string*>(user)->append(data, size * count);
        return size * count;
    }
    static size_t append_header(char* data, size_t size, size_t count, void* user) {
        auto& headers = *static_cast<std::vector<std::pair<std::string, std::string>>*>(user);
        const std::string line(data, size * count);
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(" \t"));
            value.erase(value.find_last_not_of(" \t\r\n") + 1);
            headers.emplace_back(std::move(name), std::move(value));
        }
        return size * count;
    }

    PageAnswer send(const std::string& method, const std::string& path,
                    const std::optional<std::string>& body) {
        PageAnswer answer;
        const std::string url = base_url_ + path;
        curl_easy_setopt(curl_, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl_, CURLOPT_CUSTOMREQUEST, method.c_str());
        curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, 10000L);
        curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, append_body);
        curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &answer.body);
        curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, append_header);
        curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &answer.headers);
        if (body) {
            curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE, static_cast<long>(body->size()));
            curl_easy_setopt(curl_, CURLOPT_COPYPOSTFIELDS, body->c_str());
        } else {
            curl_easy_setopt(curl_, CURLOPT_HTTPGET, 1L);
        }
        const CURLcode code = curl_easy_perform(curl_);
        if (code != CURLE_OK)
            throw std::runtime_error(method + " " + url + ": " + curl_easy_strerror(code));
        curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &answer.status);
        return answer;
    }

    std::string base_url_;
    CURL* curl_;
};

// The password the dashboard tests give their users.
inline constexpr const char* kDashboardPassword = "correct horse battery";

// Whether the page text `text` holds `part`.
inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// squawkctl user create with `args`, the password on its standard input; the new user's id.
inline long long create_dashboard_user(Stack& stack, const std::vector<std::string>& args,
                                       const std::string& password) {
    std::vector<std::string> argv = {"/bin/sh",
                                     "-c",
                                     "printf '%s' \"$0\" | \"$@\"",
                                     password,
                                     ServerEnv::get().bin_dir + "/squawkctl",
                                     "--config",
                                     stack.config_path(),
                                     "user",
                                     "create"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = run_command(argv);
    if (result.exit_code != 0)
        throw std::runtime_error("squawkctl user create failed: " + result.err);
    return std::stoll(result.out);
}

// A user of `workspace_id` with `role` and kDashboardPassword; the new user's id.
inline long long add_dashboard_user(Stack& stack, long long workspace_id, const std::string& email,
                                    const std::string& role) {
    return create_dashboard_user(
        stack, {"--workspace", std::to_string(workspace_id), "--email", email, "--role", role},
        kDashboardPassword);
}

// Runs tests/browser/`script` (a flow built on browsing.mjs) in headless Chromium against the
// stack's dashboard, signed in as `email`; `env` adds settings of the script's own ("NAME=value").
inline CommandResult run_browser_script(Stack& stack, const std::string& script,
                                        const std::string& email, const std::string& password,
                                        const std::vector<std::string>& env = {}) {
    const auto& server = ServerEnv::get();
    const std::string build_dir = server.bin_dir + "/..";
    std::vector<std::string> argv = {
        "env",
        "SQUAWK_DASHBOARD_URL=" + stack.base_url(),
        "SQUAWK_DASHBOARD_EMAIL=" + email,
        "SQUAWK_DASHBOARD_PASSWORD=" + password,
        "SQUAWK_SCREENSHOT_DIR=" + build_dir + "/browser-screenshots",
        "SQUAWK_BROWSER_MODULES=" + build_dir + "/browser/node_modules"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.push_back("node");
    argv.push_back(server.source_dir + "/tests/browser/" + script);
    return run_command(argv, std::chrono::seconds(180));
}

}  // namespace squawk::testing
