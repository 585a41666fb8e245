#include "common/domain/media/upload_budget.hpp"

namespace squawk::media {

UploadBudget& process_upload_budget(long long capacity_bytes) {
    static UploadBudget budget(capacity_bytes);
    return budget;
}

}  // namespace squawk::media
