// The floor for `irlint check`: read IR .xml files into memory and parse each with pugixml, nothing else.
// Prints the number of <layer> elements under <net><layers> (over every file) and the time spent (read +
// parse) in ms. A file that is not XML is counted and skipped, as `irlint check` reports and goes on.
//
//   parse_only MODEL.xml...
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include <pugixml.hpp>

namespace {

// The <layer> count of one file, or -1 when it cannot be read or parsed.
long parse_file(const char* path, size_t* bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    in.seekg(0, std::ios::end);
    std::string text(static_cast<size_t>(in.tellg()), '\0');
    in.seekg(0, std::ios::beg);
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size()))) {
        std::fprintf(stderr, "%s: read error\n", path);
        return -1;
    }
    *bytes += text.size();
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size(), pugi::parse_default);
    if (!parsed) {
        std::fprintf(stderr, "%s: %s at offset %td\n", path, parsed.description(), parsed.offset);
        return -1;
    }
    long layers = 0;
    for (pugi::xml_node l = doc.document_element().child("layers").child("layer"); l; l = l.next_sibling("layer"))
        ++layers;
    return layers;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.xml...\n", argv[0]);
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    long layers = 0;
    size_t bytes = 0;
    int failed = 0;
    for (int i = 1; i < argc; ++i) {
        const long n = parse_file(argv[i], &bytes);
        if (n < 0) ++failed;
        else layers += n;
    }
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("layers=%ld bytes=%zu ms=%.2f\n", layers, bytes, elapsed.count());
    return failed == argc - 1 ? 1 : 0;
}
