#include "report/png.hpp"

#include <png.h>

#include <cstring>

namespace irlint {

// libpng's simplified API: no setjmp/longjmp error handling to wrap, and the image goes to memory.
std::optional<std::string> encode_png(const RgbImage& image, std::string* error) {
    if (image.width <= 0 || image.height <= 0 || image.width > 0x7fffffff || image.height > 0x7fffffff ||
        image.pixels.size() != static_cast<size_t>(image.width * image.height * 3)) {
        *error = "the image has no pixels or the wrong number of them";
        return std::nullopt;
    }
    png_image header;
    std::memset(&header, 0, sizeof header);
    header.version = PNG_IMAGE_VERSION;
    header.width = static_cast<png_uint_32>(image.width);
    header.height = static_cast<png_uint_32>(image.height);
    header.format = PNG_FORMAT_RGB;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&header, nullptr, &size, 0, image.pixels.data(), 0, nullptr)) {
        *error = header.message;
        return std::nullopt;
    }
    std::string bytes(size, '\0');
    if (!png_image_write_to_memory(&header, bytes.data(), &size, 0, image.pixels.data(), 0, nullptr)) {
        *error = header.message;
        return std::nullopt;
    }
    bytes.resize(size);
    return bytes;
}

}  // namespace irlint
