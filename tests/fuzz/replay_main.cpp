// Replays fuzz inputs without libFuzzer: runs LLVMFuzzerTestOneInput once on every file given, or on every file of
// every directory given (sorted by name). A target signals a broken invariant by aborting, so reaching the end means
// every input passed. Used by the ctest tests fuzz_replay_<name> (tests/fuzz/CMakeLists.txt).
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

bool replayFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
        return false;
    }
    const QByteArray bytes = file.readAll();
    std::fprintf(stderr, "replay %s (%lld bytes)\n", qPrintable(path), static_cast<long long>(bytes.size()));
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    int replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const QString path = QString::fromLocal8Bit(argv[i]);
        QStringList files;
        if (QFileInfo(path).isDir()) {
            const QDir dir(path);
            for (const QString &name : dir.entryList(QDir::Files, QDir::Name))
                files.append(dir.filePath(name));
        } else {
            files.append(path);
        }
        for (const QString &file : files) {
            if (!replayFile(file))
                return 1;
            ++replayed;
        }
    }
    if (replayed == 0) {
        // An empty or mistyped corpus directory must not pass silently.
        std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...: no input replayed\n", argv[0]);
        return 1;
    }
    std::fprintf(stderr, "%d inputs replayed, every invariant held\n", replayed);
    return 0;
}
