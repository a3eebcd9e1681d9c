// The floor for `irlint check` of ONNX models: read .onnx files into memory and parse each into ONNX's
// ModelProto with protobuf, nothing else. Prints the number of main-graph nodes (over every file), the bytes
// and the time spent (read + parse) in ms. A file that does not parse is counted and skipped.
//
//   onnx_parse_only MODEL.onnx...
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <onnx/onnx_pb.h>

namespace {

// The node count of one file, or -1 when it cannot be read or parsed.
long parse_file(const char* path, size_t* bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    *bytes += data.size();
    onnx::ModelProto model;
    if (!model.ParseFromString(data)) {
        std::fprintf(stderr, "%s: not an ONNX model\n", path);
        return -1;
    }
    return model.graph().node_size();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.onnx...\n", argv[0]);
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    long nodes = 0;
    size_t bytes = 0;
    int failed = 0;
    for (int i = 1; i < argc; ++i) {
        const long n = parse_file(argv[i], &bytes);
        if (n < 0) ++failed;
        else nodes += n;
    }
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("nodes=%ld bytes=%zu ms=%.2f\n", nodes, bytes, elapsed.count());
    return failed == argc - 1 ? 1 : 0;
}
