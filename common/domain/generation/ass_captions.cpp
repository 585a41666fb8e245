#include "common/domain/generation/ass_captions.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace squawk::generation {
namespace {

// Where captions sit: bottom centre, in the lower third of a 9:16 frame.
constexpr int kAlignmentBottomCentre = 2;
constexpr double kMarginVFraction = 0.25;
constexpr double kMarginSideFraction = 0.065;

bool has(std::span<const std::string> formats, std::string_view format) {
    return std::find(formats.begin(), formats.end(), format) != formats.end();
}

size_t characters(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

// "&H0000E1FF" (the table's, with alpha) -> "&H00E1FF&" (an override's colour).
std::string override_colour(std::string_view colour) {
    return "&H" + std::string(colour.substr(colour.size() - 6)) + "&";
}

const char* flag(bool on) {
    return on ? "-1" : "0";
}

struct Look {
    const CaptionStyle& style;
    bool uppercase;
    bool weights;  // light weight, the spoken word bold
};

// One line of text with word `current` drawn as the spoken one.
std::string line_text(const Look& look, const CaptionLine& line, size_t current) {
    const auto& s = look.style;
    const std::string text = override_colour(s.text_colour);
    const std::string highlight = override_colour(s.highlight_colour);
    std::string out;
    for (size_t k = 0; k < line.words.size(); ++k) {
        if (k > 0) out += ' ';
        const std::string word = ass_text(line.words[k].word, look.uppercase);
        if (k != current) {
            out += word;
        } else if (look.weights) {
            out += "{\\fn" + std::string(s.font) + "\\b1}" + word + "{\\fn" +
                   std::string(s.light_font) + "\\b0}";
        } else if (s.motion == CaptionMotion::pop_line) {
            out += "{\\1c" + highlight + "\\fscx118\\fscy118\\t(0,150,\\fscx100\\fscy100)}" + word +
                   "{\\1c" + text + "\\fscx100\\fscy100}";
        } else {
            out += "{\\1c" + highlight + "}" + word + "{\\1c" + text + "}";
        }
    }
    return out;
}

void dialogue(std::string& out, double start, double end, const std::string& text) {
    if (end - start < 0.01) return;
    out +=
        "Dialogue: 0," + ass_time(start) + "," + ass_time(end) + ",Caption,,0,0,0,," + text + "\n";
}

// One event per word, each popping in; it stays until the next word or for the hold.
void word_events(std::string& out, const Look& look, std::span<const TranscribedWord> words) {
    const std::string pop = "{\\1c" + override_colour(look.style.highlight_colour) +
                            "\\fscx60\\fscy60\\t(0,90,\\fscx112\\fscy112)"
                            "\\t(90,160,\\fscx100\\fscy100)}";
    for (size_t i = 0; i < words.size(); ++i) {
        double end = words[i].end_seconds + kCaptionHoldSeconds;
        if (i + 1 < words.size()) end = std::min(end, words[i + 1].start_seconds);
        end = std::max(end, words[i].end_seconds);
        dialogue(out, words[i].start_seconds, end, pop + ass_text(words[i].word, look.uppercase));
    }
}

// Each line from its first word to its last (plus the hold), one event per spoken word so the
// emphasis moves along the line with the voice.
void line_events(std::string& out, const Look& look, std::span<const TranscribedWord> words) {
    const auto lines = group_lines(words, look.style.words_per_line);
    for (size_t l = 0; l < lines.size(); ++l) {
        const auto& line = lines[l];
        double line_end = line.words.back().end_seconds + kCaptionHoldSeconds;
        if (l + 1 < lines.size())
            line_end = std::min(line_end, lines[l + 1].words.front().start_seconds);
        line_end = std::max(line_end, line.words.back().end_seconds);
        for (size_t k = 0; k < line.words.size(); ++k) {
            const double start = line.words[k].start_seconds;
            const double end =
                k + 1 < line.words.size() ? line.words[k + 1].start_seconds : line_end;
            dialogue(out, start, end, line_text(look, line, k));
        }
    }
}

}  // namespace

std::vector<CaptionLine> group_lines(std::span<const TranscribedWord> words, int max_words) {
    std::vector<CaptionLine> lines;
    size_t chars = 0;
    for (const auto& w : words) {
        const size_t length = characters(w.word);
        const bool start_new =
            lines.empty() ||
            static_cast<int>(lines.back().words.size()) >= std::max(1, max_words) ||
            chars + 1 + length > kMaxLineChars ||
            w.start_seconds - lines.back().words.back().end_seconds > kLineBreakPauseSeconds;
        if (start_new) {
            lines.emplace_back();
            chars = length;
        } else {
            chars += 1 + length;
        }
        lines.back().words.push_back(w);
    }
    return lines;
}

std::string ass_time(double seconds) {
    const long long cs = std::llround(std::max(0.0, seconds) * 100);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld.%02lld", cs / 360000, cs / 6000 % 60,
                  cs / 100 % 60, cs % 100);
    return buffer;
}

std::string ass_text(std::string_view word, bool uppercase) {
    std::string out;
    out.reserve(word.size());
    for (const char c : word) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '{' || c == '}') {
            out += '\\';
            out += c;
        } else if (c == '\\') {
            // A word joiner after it, so no letter after it can make \N, \h or an override.
            out += "\\\u2060";
        } else if (byte < 0x20 || byte == 0x7F) {
            out += ' ';
        } else {
            out += uppercase && byte < 0x80 ? static_cast<char>(std::toupper(byte)) : c;
        }
    }
    return out;
}

std::string ass_document(const CaptionStyle& style, std::span<const std::string> formats,
                         std::span<const TranscribedWord> words, int width, int height) {
    const bool light =
        !style.light_font.empty() && (style.motion == CaptionMotion::weight_line ||
                                      (style.light_bold && has(formats, "light_bold")));
    const Look look{style, style.uppercase || has(formats, "uppercase"), light};
    const int side = static_cast<int>(width * kMarginSideFraction);
    const int vertical = static_cast<int>(height * kMarginVFraction);
    const double scale = height / 1920.0;

    std::string out = "[Script Info]\nScriptType: v4.00+\nPlayResX: " + std::to_string(width) +
                      "\nPlayResY: " + std::to_string(height) +
                      "\nWrapStyle: 0\nScaledBorderAndShadow: yes\nYCbCr Matrix: TV.709\n\n";
    out +=
        "[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, "
        "OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, "
        "Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, "
        "Encoding\n";
    out += "Style: Caption," + std::string(light ? style.light_font : style.font) + "," +
           std::to_string(std::lround(style.font_size * scale)) + "," +
           std::string(style.text_colour) + "," + std::string(style.highlight_colour) + "," +
           std::string(style.outline_colour) + "," + std::string(style.shadow_colour) + "," +
           flag(style.bold && !light) + "," + flag(has(formats, "italic")) + "," +
           flag(has(formats, "underline")) + "," + flag(has(formats, "strikethrough")) +
           ",100,100,0,0,1," + std::to_string(std::lround(style.outline * scale)) + "," +
           std::to_string(std::lround(style.shadow * scale)) + "," +
           std::to_string(kAlignmentBottomCentre) + "," + std::to_string(side) + "," +
           std::to_string(side) + "," + std::to_string(vertical) + ",1\n\n";
    out +=
        "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, "
        "Text\n";
    if (style.motion == CaptionMotion::one_word)
        word_events(out, look, words);
    else
        line_events(out, look, words);
    return out;
}

}  // namespace squawk::generation
