#pragma once
// Output files appear whole or not at all: content goes to a temporary file beside the target, which is
// then renamed over it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irlint {

// Writes a file piece by piece (a report while it is produced). Nothing is visible at the target until
// commit(); destroyed without a commit, the temporary file is removed.
class AtomicFileWriter {
public:
    // nullopt and `error` when the temporary file cannot be created.
    static std::optional<AtomicFileWriter> open(const std::string& path, std::string& error);

    AtomicFileWriter(AtomicFileWriter&& other) noexcept;
    AtomicFileWriter& operator=(AtomicFileWriter&&) = delete;
    ~AtomicFileWriter();

    // A failure is kept and reported by commit().
    void write(std::string_view piece);
    // Gives the file these permission bits (those of the file it replaces).
    std::optional<std::string> keep_mode(unsigned mode);
    // Closes the file and renames it over the target. Returns an error text on failure; the target is then
    // unchanged and the temporary file removed.
    std::optional<std::string> commit();

private:
    AtomicFileWriter(std::string path, std::string temp, int fd);

    std::string path_, temp_;  // temp_ is empty once renamed
    int fd_ = -1;
    int errno_ = 0;  // of the first failed write
};

// Returns an error text on failure; the temporary file is removed then.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content);
// The same for content in pieces, written one after another (a header, then a large buffer).
std::optional<std::string> write_file_atomically(const std::string& path, const std::vector<std::string_view>& pieces);
// Replaces an existing file, keeping its permission bits (a model rewritten by `check --fix`).
std::optional<std::string> replace_file_atomically(const std::string& path, std::string_view content);

}  // namespace irlint
