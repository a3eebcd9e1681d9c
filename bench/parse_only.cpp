// The floor for `irlint check`: read an IR .xml into memory and parse it with pugixml, nothing else.
// Prints the number of <layer> elements under <net><layers> and the time spent (read + parse) in ms.
//
//   parse_only MODEL.xml
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include <pugixml.hpp>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();

    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 2;
    }
    in.seekg(0, std::ios::end);
    std::string text(static_cast<size_t>(in.tellg()), '\0');
    in.seekg(0, std::ios::beg);
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size()))) {
        std::fprintf(stderr, "%s: read error\n", argv[1]);
        return 2;
    }

    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size(), pugi::parse_default);
    if (!parsed) {
        std::fprintf(stderr, "%s: %s at offset %td\n", argv[1], parsed.description(), parsed.offset);
        return 1;
    }
    long layers = 0;
    for (pugi::xml_node l = doc.document_element().child("layers").child("layer"); l; l = l.next_sibling("layer"))
        ++layers;

    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("layers=%ld bytes=%zu ms=%.2f\n", layers, text.size(), elapsed.count());
    return 0;
}
