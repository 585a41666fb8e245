// Where things sit on a slide, in points on a 960 × 540 page (16:9). The PPTX writer and the
// Cairo drawing both place text and pictures from these boxes, so the deck, the PDF and the
// thumbnails show the same layout.
#pragma once

namespace squawk::presentation {

struct Frame {
    double x = 0;
    double y = 0;
    double width = 0;
    double height = 0;
};

inline constexpr double kPageWidth = 960;
inline constexpr double kPageHeight = 540;

// Font sizes in points; text that does not fit shrinks (PowerPoint's autofit, Pango's fit).
inline constexpr double kDeckTitleSize = 48;
inline constexpr double kSlideTitleSize = 34;
inline constexpr double kBulletSize = 22;

// The title slide: the deck's title above an accent bar.
inline constexpr Frame kDeckTitleFrame{72, 150, 816, 170};
inline constexpr Frame kDeckTitleBar{72, 340, 140, 8};

// A content slide: its title, a bar under it, the bullets, and the picture on the right.
inline constexpr Frame kSlideTitleFrame{64, 36, 832, 84};
inline constexpr Frame kSlideTitleBar{64, 128, 96, 6};
inline constexpr Frame kBodyFrame{64, 160, 832, 340};
inline constexpr Frame kBodyBesideImageFrame{64, 160, 480, 340};
inline constexpr Frame kImageFrame{576, 160, 320, 340};

// The largest frame with the picture's proportions, centred in `box`.
inline Frame fit_image(const Frame& box, int width, int height) {
    if (width <= 0 || height <= 0) return box;
    const double scale =
        box.width / width < box.height / height ? box.width / width : box.height / height;
    const double w = width * scale;
    const double h = height * scale;
    return {box.x + (box.width - w) / 2, box.y + (box.height - h) / 2, w, h};
}

}  // namespace squawk::presentation
