#include "onnx/onnx_isolated_inference.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <onnx/defs/schema.h>

namespace irlint {

namespace {

IsolatedChildHook child_hook = nullptr;

// The pipe's format: magic, then 'S' and a reason, or 'V' and the values, then the end mark. Integers are
// little-endian as the machine writes them: both ends are this binary.
constexpr std::string_view kMagic = "IRLS1";
constexpr std::string_view kEnd = "END!";

void put_u32(std::string& out, uint32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
void put_i64(std::string& out, int64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
void put_text(std::string& out, std::string_view s) {
    put_u32(out, static_cast<uint32_t>(s.size()));
    out.append(s);
}

// Node index and text, for the node errors and the withheld nodes.
void put_node_texts(std::string& out, const std::map<size_t, std::string>& texts) {
    put_u32(out, static_cast<uint32_t>(texts.size()));
    for (const auto& [index, text] : texts) {
        put_i64(out, static_cast<int64_t>(index));
        put_text(out, text);
    }
}

// Each value: name, elem type (0: none), rank (UINT32_MAX: unknown), dims (-1: unknown); then the node errors
// and the withheld nodes.
std::string serialize(const LibraryShapes& lib) {
    std::string out(kMagic);
    if (lib.skipped) {
        out += 'S';
        put_text(out, *lib.skipped);
    } else {
        out += 'V';
        std::map<std::string, std::pair<int, const Shape*>> values;
        for (const auto& [name, shape] : lib.shapes) values[name].second = &shape;
        for (const auto& [name, type] : lib.elem_types) values[name].first = type;
        put_u32(out, static_cast<uint32_t>(values.size()));
        for (const auto& [name, v] : values) {
            put_text(out, name);
            put_u32(out, static_cast<uint32_t>(v.first));
            if (!v.second || v.second->rank_dynamic) {
                put_u32(out, UINT32_MAX);
                continue;
            }
            put_u32(out, static_cast<uint32_t>(v.second->rank()));
            for (const Dim& d : v.second->dims) put_i64(out, d.is_static() ? d.length() : -1);
        }
        put_node_texts(out, lib.node_errors);
        put_node_texts(out, lib.withheld);
    }
    out += kEnd;
    return out;
}

class Reader {
public:
    explicit Reader(std::string_view data) : data_(data) {}
    bool take(std::string_view want) {
        if (data_.substr(0, want.size()) != want) return false;
        data_.remove_prefix(want.size());
        return true;
    }
    template <typename T>
    bool number(T& v) {
        if (data_.size() < sizeof v) return false;
        std::memcpy(&v, data_.data(), sizeof v);
        data_.remove_prefix(sizeof v);
        return true;
    }
    bool text(std::string& s) {
        uint32_t n = 0;
        if (!number(n) || n > data_.size()) return false;
        s.assign(data_.substr(0, n));
        data_.remove_prefix(n);
        return true;
    }
    bool byte(char& c) {
        if (data_.empty()) return false;
        c = data_[0];
        data_.remove_prefix(1);
        return true;
    }
    size_t left() const { return data_.size(); }

private:
    std::string_view data_;
};

bool read_value(Reader& r, LibraryShapes& lib) {
    std::string name;
    uint32_t type = 0, rank = 0;
    if (!r.text(name) || !r.number(type) || !r.number(rank) || type > INT32_MAX) return false;
    if (type != 0) lib.elem_types[name] = static_cast<int>(type);
    if (rank == UINT32_MAX) return true;
    if (rank > r.left() / sizeof(int64_t)) return false;
    Shape s;
    for (uint32_t d = 0; d < rank; ++d) {
        int64_t v = 0;
        if (!r.number(v) || v < -1) return false;
        s.dims.push_back(v >= 0 ? Dim(v) : Dim::dynamic());
    }
    lib.shapes[name] = std::move(s);
    return true;
}

bool read_node_texts(Reader& r, std::map<size_t, std::string>& texts) {
    uint32_t count = 0;
    if (!r.number(count) || count > r.left() / 12) return false;
    for (uint32_t i = 0; i < count; ++i) {
        int64_t index = 0;
        std::string text;
        if (!r.number(index) || index < 0 || !r.text(text)) return false;
        texts[static_cast<size_t>(index)] = std::move(text);
    }
    return true;
}

std::optional<LibraryShapes> deserialize(std::string_view data) {
    Reader r(data);
    LibraryShapes lib;
    char kind = 0;
    if (!r.take(kMagic) || !r.byte(kind)) return std::nullopt;
    if (kind == 'S') {
        std::string reason;
        if (!r.text(reason)) return std::nullopt;
        lib.skipped = std::move(reason);
    } else if (kind == 'V') {
        uint32_t count = 0;
        if (!r.number(count) || count > r.left() / 12) return std::nullopt;
        for (uint32_t i = 0; i < count; ++i)
            if (!read_value(r, lib)) return std::nullopt;
        if (!read_node_texts(r, lib.node_errors) || !read_node_texts(r, lib.withheld)) return std::nullopt;
    } else {
        return std::nullopt;
    }
    if (!r.take(kEnd) || r.left() != 0) return std::nullopt;
    return lib;
}

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}

// Pages the process maps now: the child's limit is on top of them (a sanitizer's shadow maps terabytes).
uint64_t mapped_bytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    return pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

[[noreturn]] void run_child(const OnnxModel& model, const IsolationLimits& limits, LibraryErrors errors,
                            uint64_t mapped, int fd) {
    const rlimit as{mapped + limits.address_space, mapped + limits.address_space};
    const rlimit cpu{limits.cpu_seconds, limits.cpu_seconds + 1};
    const rlimit no_core{0, 0};  // a crash must leave no core file in the user's directory
    if (::setrlimit(RLIMIT_AS, &as) != 0 || ::setrlimit(RLIMIT_CPU, &cpu) != 0 || ::setrlimit(RLIMIT_CORE, &no_core) != 0)
        ::_exit(2);
    // Another thread's pipe kept open here would keep its reader waiting for this child's end.
    if (fd > 3) ::close_range(3, static_cast<unsigned>(fd) - 1, 0);
    ::close_range(static_cast<unsigned>(fd) + 1, ~0U, 0);
    // The parent's handlers (a test framework's, a sanitizer's) must not report the library's crash as theirs.
    for (int sig : {SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGXCPU}) ::signal(sig, SIG_DFL);
    if (child_hook) child_hook(fd);
    std::string out;
    try {
        out = serialize(library_shape_inference(model, errors));
    } catch (...) {
        ::_exit(3);  // std::bad_alloc under the address-space limit, most likely
    }
    ::_exit(write_all(fd, out) ? 0 : 4);
}

// How reading the child's answer ended.
enum class Drained { whole, late, too_long };

// Reads what the child writes until it closes the pipe, the bound or the deadline.
Drained drain(int fd, const IsolationLimits& limits, std::string& data, std::string& why) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limits.wall_seconds);
    char buf[65536];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            why = fmt::format("ONNX's shape inference ran past {} s", limits.wall_seconds);
            return Drained::late;
        }
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Drained::whole;
        if (data.size() + static_cast<size_t>(n) > limits.max_bytes) {
            why = fmt::format("ONNX's shape inference wrote more than {} bytes", limits.max_bytes);
            return Drained::too_long;
        }
        data.append(buf, static_cast<size_t>(n));
    }
}

int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return status;
}

std::string exit_reason(int status) {
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = ::strsignal(sig);
        return fmt::format("ONNX's shape inference was stopped by signal {} ({})", sig, name ? name : "?");
    }
    if (WIFEXITED(status)) return fmt::format("ONNX's shape inference exited with status {}", WEXITSTATUS(status));
    return fmt::format("ONNX's shape inference ended with wait status {}", status);
}

LibraryShapes unavailable(std::string why) {
    LibraryShapes out;
    out.skipped = std::move(why);
    return out;
}

}  // namespace

void set_isolated_inference_child_hook(IsolatedChildHook hook) { child_hook = hook; }

namespace {

// One child; `late` is set when it ran past the wall-clock limit.
LibraryShapes run_isolated(const OnnxModel& model, const IsolationLimits& limits, LibraryErrors errors, bool& late) {
    // Built before the fork: a child of a threaded process must not be the first to take their locks.
    (void)onnx::OpSchemaRegistry::Instance();
    (void)onnx::OpSchemaRegistry::DomainToVersionRange::Instance();
    const uint64_t mapped = mapped_bytes();
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return unavailable(fmt::format("no pipe for ONNX's shape inference: {}", std::strerror(errno)));
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return unavailable(fmt::format("no process for ONNX's shape inference: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        ::close(fds[0]);
        run_child(model, limits, errors, mapped, fds[1]);
    }
    ::close(fds[1]);
    std::string data, why;
    const Drained drained = drain(fds[0], limits, data, why);
    const bool whole = drained == Drained::whole;
    late = drained == Drained::late;
    ::close(fds[0]);
    if (!whole) ::kill(pid, SIGKILL);
    const int status = wait_for(pid);
    if (!whole) return unavailable(why);
    if (status < 0) return unavailable("ONNX's shape inference could not be waited for");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return unavailable(exit_reason(status));
    auto lib = deserialize(data);
    if (!lib) return unavailable(fmt::format("ONNX's shape inference sent {} bytes that do not parse", data.size()));
    return std::move(*lib);
}

}  // namespace

// The library takes milliseconds on a model; a child that is late has most likely stopped on a lock that
// another thread of the parent held at the fork (a sanitizer's allocator does not prepare for fork as
// glibc's does) and never gets it. It is tried again, once, with the whole limit.
LibraryShapes isolated_library_shape_inference(const OnnxModel& model, const IsolationLimits& limits,
                                               LibraryErrors errors) {
    if (!model.proto) return unavailable("no model");
    IsolationLimits first = limits;
    first.wall_seconds = std::min(limits.wall_seconds, limits.first_try_seconds);
    bool late = false;
    LibraryShapes lib = run_isolated(model, first, errors, late);
    if (!late || first.wall_seconds == limits.wall_seconds) return lib;
    return run_isolated(model, limits, errors, late);
}

}  // namespace irlint
