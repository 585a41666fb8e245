// The platforms this build can connect, one line each (with its factory's include); a platform
// left out of this list cannot be connected, configured or documented.
#include "common/extensions/platforms/bluesky/factory.hpp"
#include "common/extensions/platforms/discord/factory.hpp"
#include "common/extensions/platforms/facebook/factory.hpp"
#include "common/extensions/platforms/instagram/factory.hpp"
#include "common/extensions/platforms/linkedin/factory.hpp"
#include "common/extensions/platforms/pinterest/factory.hpp"
#include "common/extensions/platforms/telegram/factory.hpp"
#include "common/extensions/platforms/threads/factory.hpp"
#include "common/extensions/platforms/tiktok/factory.hpp"
#include "common/extensions/platforms/whatsapp/factory.hpp"
#include "common/extensions/platforms/x/factory.hpp"
#include "common/extensions/platforms/youtube/factory.hpp"

namespace squawk::social {

std::span<const PlatformFactory> registered_platforms() {
    // One line per platform, so adding one is a one-line change.
    // clang-format off
    static constexpr PlatformFactory kRegistered[] = {
        telegram::kFactory,
        discord::kFactory,
        whatsapp::kFactory,
        bluesky::kFactory,
        threads::kFactory,
        x::kFactory,
        linkedin::kFactory,
        tiktok::kFactory,
        pinterest::kFactory,
        youtube::kFactory,
        instagram::kFactory,
        facebook::kFactory,
    };
    // clang-format on
    return kRegistered;
}

}  // namespace squawk::social
