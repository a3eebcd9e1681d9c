#pragma once
// PNG encoding of an 8-bit RGB image, in memory (libpng), so that the file can then be written atomically.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irlint {

struct RgbImage {
    int64_t width = 0, height = 0;
    std::vector<uint8_t> pixels;  // width * height * 3 bytes, row by row, top to bottom

    RgbImage() = default;
    RgbImage(int64_t w, int64_t h, uint8_t grey) : width(w), height(h), pixels(static_cast<size_t>(w * h * 3), grey) {}
    void set(int64_t x, int64_t y, uint8_t r, uint8_t g, uint8_t b) {
        uint8_t* p = &pixels[static_cast<size_t>((y * width + x) * 3)];
        p[0] = r;
        p[1] = g;
        p[2] = b;
    }
};

// The PNG file's bytes; nullopt with *error set when libpng refuses the image.
std::optional<std::string> encode_png(const RgbImage& image, std::string* error);

}  // namespace irlint
