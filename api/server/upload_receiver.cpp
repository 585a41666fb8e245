#include "api/server/upload_receiver.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace squawk::api {

UploadReceiver::UploadReceiver(const RequestHead& head, Route::Upload how, bool caller_known,
                               const UploadLimits& limits, UploadRegistry& registry)
    : limits_(limits), registry_(registry) {
    if (!caller_known) {
        refuse(ReceivedUpload::Outcome::unauthenticated);
        return;
    }
    const BodyFraming framing = body_framing(head);
    const long long allowed =
        limits.max_upload_bytes + (how == Route::Upload::form_file ? kFormFramingBytes : 0);
    if (framing.kind == BodyFraming::Kind::length && framing.length > allowed) {
        refuse(ReceivedUpload::Outcome::too_large);
        return;
    }
    if (how == Route::Upload::form_file) {
        const auto content_type = head.field("Content-Type");
        const auto boundary = content_type ? form_boundary(*content_type) : std::nullopt;
        if (!boundary) {
            refuse(ReceivedUpload::Outcome::not_a_form);
            return;
        }
        form_.emplace(*boundary, static_cast<FormSink&>(*this));
    }
    const long long window = framing.kind == BodyFraming::Kind::length
                                 ? std::min<long long>(framing.length, media::kUploadBufferBytes)
                                 : media::kUploadBufferBytes;
    auto reservation = media::process_upload_budget(limits.budget_bytes).reserve(window);
    if (!reservation) {
        refuse(ReceivedUpload::Outcome::busy);
        return;
    }
    reservation_.emplace(std::move(*reservation));
    buffer_.reserve(static_cast<size_t>(window));
    if (head.has_field("X-Idempotency-Key")) digest_.emplace();
    if (how == Route::Upload::whole_body) part_begins({});
}

UploadReceiver::~UploadReceiver() {
    if (fd_ >= 0) ::close(fd_);
    if (!ticket_.empty()) registry_.discard(ticket_);
}

void UploadReceiver::refuse(ReceivedUpload::Outcome outcome, std::string problem) {
    refused_ = true;
    upload_.outcome = outcome;
    upload_.problem = std::move(problem);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    upload_.file = fs::OwnedFile();
    buffer_ = std::string();
    reservation_.reset();
}

bool UploadReceiver::take(std::string_view payload) {
    if (refused_) return false;
    body_bytes_ += static_cast<long long>(payload.size());
    if (body_bytes_ > limits_.max_upload_bytes + (form_ ? kFormFramingBytes : 0)) {
        refuse(ReceivedUpload::Outcome::too_large);
        return false;
    }
    if (form_) {
        if (!form_->feed(payload) && !refused_)
            refuse(ReceivedUpload::Outcome::malformed_form, form_->error());
    } else {
        part_data(payload);
    }
    return !refused_;
}

void UploadReceiver::part_begins(const FormPartHead& head) {
    // The first part named `file` is the upload; every other part is read past.
    if (form_ && (file_part_seen_ || head.name != "file")) return;
    file_part_seen_ = true;
    in_file_part_ = true;
    if (form_) upload_.filename = head.filename;
    std::filesystem::path path =
        limits_.incoming_dir / ("upload-" + crypto::hex(crypto::random_bytes(12)) + ".part");
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        refuse(ReceivedUpload::Outcome::write_failed,
               "cannot create " + path.string() + ": " + std::strerror(errno));
        return;
    }
    upload_.file = fs::OwnedFile(std::move(path));
}

void UploadReceiver::part_data(std::string_view bytes) {
    if (!in_file_part_ || refused_) return;
    upload_.size_bytes += static_cast<long long>(bytes.size());
    if (upload_.size_bytes > limits_.max_upload_bytes) {
        refuse(ReceivedUpload::Outcome::too_large);
        return;
    }
    if (digest_) digest_->update(bytes);
    write(bytes);
}

void UploadReceiver::part_ends() {
    in_file_part_ = false;
}

void UploadReceiver::write(std::string_view bytes) {
    while (!bytes.empty() && !refused_) {
        const size_t n = std::min(bytes.size(), buffer_.capacity() - buffer_.size());
        buffer_.append(bytes.substr(0, n));
        bytes.remove_prefix(n);
        if (buffer_.size() == buffer_.capacity()) flush();
    }
}

void UploadReceiver::flush() {
    std::string_view rest = buffer_;
    const off_t start = written_;
    while (!rest.empty()) {
        const ssize_t n = ::write(fd_, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            refuse(ReceivedUpload::Outcome::write_failed,
                   "cannot write " + upload_.file.path().string() + ": " + std::strerror(errno));
            return;
        }
        rest.remove_prefix(static_cast<size_t>(n));
        written_ += n;
    }
    // Starts writing these bytes to disk now, while the rest arrive, so the flush that makes the
    // finished file durable (put into the store) finds little left to wait for.
    if (written_ > start) ::sync_file_range(fd_, start, written_ - start, SYNC_FILE_RANGE_WRITE);
    buffer_.clear();
}

std::vector<std::pair<std::string, std::string>> UploadReceiver::settle(bool body_complete) {
    if (!refused_) {
        if (!body_complete)
            refuse(ReceivedUpload::Outcome::incomplete);
        else if (form_ && !form_->finish())
            refuse(ReceivedUpload::Outcome::malformed_form, form_->error());
        else if (form_ && !file_part_seen_)
            refuse(ReceivedUpload::Outcome::no_file);
    }
    if (!refused_ && fd_ >= 0) {
        flush();
        if (fd_ >= 0 && ::close(fd_) != 0 && !refused_)
            refuse(ReceivedUpload::Outcome::write_failed, std::strerror(errno));
        fd_ = -1;
    }
    if (!refused_ && digest_) upload_.sha256 = digest_->hex_digest();
    reservation_.reset();
    ticket_ = registry_.put(std::move(upload_));
    return {{std::string(kUploadTicketField), ticket_}};
}

}  // namespace squawk::api
