#include "aadhaarvault.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

static_assert(AadhaarVault::KeySize == crypto_kdf_KEYBYTES);
static_assert(AadhaarVault::KeySize == crypto_aead_xchacha20poly1305_ietf_KEYBYTES);
static_assert(AadhaarVault::KeySize >= crypto_generichash_KEYBYTES_MIN &&
              AadhaarVault::KeySize <= crypto_generichash_KEYBYTES_MAX);
static_assert(AadhaarVault::HashSize == crypto_generichash_BYTES);
static_assert(AadhaarVault::SealOverhead ==
              crypto_aead_xchacha20poly1305_ietf_NPUBBYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES);

namespace {

using MasterKey = std::array<unsigned char, AadhaarVault::KeySize>;

constexpr char KdfContext[crypto_kdf_CONTEXTBYTES + 1] = "AADHAAR1";
constexpr std::uint64_t SealSubkeyId = 1;
constexpr std::uint64_t HashSubkeyId = 2;
constexpr qsizetype NonceSize = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr qsizetype TagSize = crypto_aead_xchacha20poly1305_ietf_ABYTES;

/// sodium_init() once per process; the function-local static makes concurrent first calls safe.
bool sodiumReady()
{
    static const bool ready = sodium_init() >= 0;
    return ready;
}

/// Fills *error (if any) and returns nullopt, for one-line failure returns.
std::nullopt_t fail(QString *error, const QString &message)
{
    if (error != nullptr)
        *error = message;
    return std::nullopt;
}

QString systemError(int errorNumber)
{
    return QString::fromLocal8Bit(std::strerror(errorNumber));
}

/// RAII file descriptor.
class Fd
{
public:
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int get() const { return m_fd; }
    bool isValid() const { return m_fd >= 0; }

private:
    int m_fd;
};

/// Wipes a key array when it goes out of scope.
template <typename Array> class WipeOnExit
{
public:
    explicit WipeOnExit(Array &array) : m_array(array) {}
    WipeOnExit(const WipeOnExit &) = delete;
    WipeOnExit &operator=(const WipeOnExit &) = delete;
    ~WipeOnExit() { sodium_memzero(m_array.data(), m_array.size()); }

private:
    Array &m_array;
};

/// Creates the parent directory of @p filePath with mode 0700 if it is missing (its own parents with default mode).
bool ensureParentDirectory(const QString &filePath, QString *error)
{
    const QString directory = QFileInfo(filePath).absolutePath();
    if (QFileInfo::exists(directory))
        return true;
    const QFileInfo directoryInfo(directory);
    const QString above = directoryInfo.absolutePath();
    const QFileDevice::Permissions ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
    const bool created = QDir().mkpath(above) && QDir(above).mkdir(directoryInfo.fileName(), ownerOnly);
    if (!created && !QFileInfo(directory).isDir()) { // another process may have created it meanwhile
        fail(error, QStringLiteral("cannot create Aadhaar key directory %1").arg(directory));
        return false;
    }
    return true;
}

enum class LoadResult
{
    Loaded,
    Missing,
    Failed
};

/// Reads exactly KeySize bytes from an existing key file after checking type, owner, mode and size on the open
/// descriptor (no race between check and read).
LoadResult loadKey(const QByteArray &nativePath, const QString &displayPath, MasterKey &key, QString *error)
{
    const Fd fd(::open(nativePath.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY));
    if (!fd.isValid()) {
        const int openError = errno;
        if (openError == ENOENT)
            return LoadResult::Missing;
        if (openError == ELOOP) {
            fail(error, QStringLiteral("Aadhaar key file %1 is a symbolic link; refusing it").arg(displayPath));
            return LoadResult::Failed;
        }
        fail(error, QStringLiteral("cannot open Aadhaar key file %1: %2").arg(displayPath, systemError(openError)));
        return LoadResult::Failed;
    }

    struct stat status = {};
    if (::fstat(fd.get(), &status) != 0) {
        fail(error, QStringLiteral("cannot stat Aadhaar key file %1: %2").arg(displayPath, systemError(errno)));
        return LoadResult::Failed;
    }
    if (!S_ISREG(status.st_mode)) {
        fail(error, QStringLiteral("Aadhaar key file %1 is not a regular file").arg(displayPath));
        return LoadResult::Failed;
    }
    if ((status.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
        fail(error, QStringLiteral("Aadhaar key file %1 is accessible by group or others (mode %2); "
                                   "restrict it to the owner with chmod 600")
                        .arg(displayPath, QString::number(status.st_mode & 07777, 8).rightJustified(4, u'0')));
        return LoadResult::Failed;
    }
    if (status.st_uid != ::geteuid()) {
        fail(error, QStringLiteral("Aadhaar key file %1 is owned by uid %2, not by this process (uid %3)")
                        .arg(displayPath)
                        .arg(status.st_uid)
                        .arg(::geteuid()));
        return LoadResult::Failed;
    }
    if (status.st_size != static_cast<off_t>(key.size())) {
        fail(error, QStringLiteral("Aadhaar key file %1 has the wrong size: %2 bytes, expected %3")
                        .arg(displayPath)
                        .arg(static_cast<qint64>(status.st_size))
                        .arg(key.size()));
        return LoadResult::Failed;
    }

    std::size_t done = 0;
    while (done < key.size()) {
        const ssize_t n = ::read(fd.get(), key.data() + done, key.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fail(error,
                 QStringLiteral("cannot read Aadhaar key file %1: %2")
                     .arg(displayPath, n == 0 ? QStringLiteral("file is shorter than expected") : systemError(errno)));
            return LoadResult::Failed;
        }
        done += static_cast<std::size_t>(n);
    }
    return LoadResult::Loaded;
}

enum class CreateResult
{
    Created,
    AlreadyExists,
    Failed
};

/// Creates the key file with O_EXCL and mode 0600 before any key byte is written, then writes and syncs a new key.
CreateResult createKey(const QByteArray &nativePath, const QString &displayPath, MasterKey &key, QString *error)
{
    const Fd fd(::open(nativePath.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY,
                       S_IRUSR | S_IWUSR));
    if (!fd.isValid()) {
        const int openError = errno;
        if (openError == EEXIST)
            return CreateResult::AlreadyExists;
        fail(error, QStringLiteral("cannot create Aadhaar key file %1: %2").arg(displayPath, systemError(openError)));
        return CreateResult::Failed;
    }

    const auto abandon = [&](const QString &message) {
        ::unlink(nativePath.constData());
        fail(error, message);
        return CreateResult::Failed;
    };
    if (::fchmod(fd.get(), S_IRUSR | S_IWUSR) != 0) // the umask can only narrow the mode; make it exact
        return abandon(QStringLiteral("cannot restrict Aadhaar key file %1: %2").arg(displayPath, systemError(errno)));

    crypto_kdf_keygen(key.data());
    std::size_t done = 0;
    while (done < key.size()) {
        const ssize_t n = ::write(fd.get(), key.data() + done, key.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return abandon(QStringLiteral("cannot write Aadhaar key file %1: %2").arg(displayPath, systemError(errno)));
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0)
        return abandon(QStringLiteral("cannot sync Aadhaar key file %1: %2").arg(displayPath, systemError(errno)));
    return CreateResult::Created;
}

} // namespace

std::optional<AadhaarVault> AadhaarVault::openOrCreate(const QString &keyFilePath, QString *error)
{
    if (!sodiumReady())
        return fail(error, QStringLiteral("libsodium could not be initialised"));
    if (keyFilePath.isEmpty())
        return fail(error, QStringLiteral("no Aadhaar key file path configured"));
    if (!ensureParentDirectory(keyFilePath, error))
        return std::nullopt;

    const QByteArray nativePath = QFile::encodeName(keyFilePath);
    MasterKey masterKey{};
    const WipeOnExit wipeMaster(masterKey);
    // Two rounds: if another process creates the file between our load and create, load what it wrote.
    for (int round = 0; round < 2; ++round) {
        switch (loadKey(nativePath, keyFilePath, masterKey, error)) {
        case LoadResult::Loaded:
            return AadhaarVault(masterKey);
        case LoadResult::Failed:
            return std::nullopt;
        case LoadResult::Missing:
            break;
        }
        switch (createKey(nativePath, keyFilePath, masterKey, error)) {
        case CreateResult::Created:
            return AadhaarVault(masterKey);
        case CreateResult::Failed:
            return std::nullopt;
        case CreateResult::AlreadyExists:
            break;
        }
    }
    return fail(error, QStringLiteral("Aadhaar key file %1 keeps appearing and disappearing").arg(keyFilePath));
}

AadhaarVault::AadhaarVault(const Key &masterKey)
{
    crypto_kdf_derive_from_key(m_sealKey.data(), m_sealKey.size(), SealSubkeyId, KdfContext, masterKey.data());
    crypto_kdf_derive_from_key(m_hashKey.data(), m_hashKey.size(), HashSubkeyId, KdfContext, masterKey.data());
    m_hasKey = true;
}

AadhaarVault::AadhaarVault(AadhaarVault &&other) noexcept
    : m_sealKey(other.m_sealKey), m_hashKey(other.m_hashKey), m_hasKey(other.m_hasKey)
{
    other.wipe();
}

AadhaarVault &AadhaarVault::operator=(AadhaarVault &&other) noexcept
{
    if (this != &other) {
        m_sealKey = other.m_sealKey;
        m_hashKey = other.m_hashKey;
        m_hasKey = other.m_hasKey;
        other.wipe();
    }
    return *this;
}

AadhaarVault::~AadhaarVault()
{
    wipe();
}

void AadhaarVault::wipe() noexcept
{
    sodium_memzero(m_sealKey.data(), m_sealKey.size());
    sodium_memzero(m_hashKey.data(), m_hashKey.size());
    m_hasKey = false;
}

QByteArray AadhaarVault::seal(const QString &aadhaarNumber, const QByteArray &associatedData) const
{
    if (!m_hasKey)
        return {};
    QByteArray plain = aadhaarNumber.toUtf8();
    QByteArray sealed(NonceSize + plain.size() + TagSize, Qt::Uninitialized);
    auto *nonce = reinterpret_cast<unsigned char *>(sealed.data());
    randombytes_buf(nonce, NonceSize);
    unsigned long long cipherLength = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(
        nonce + NonceSize, &cipherLength, reinterpret_cast<const unsigned char *>(plain.constData()),
        static_cast<unsigned long long>(plain.size()),
        reinterpret_cast<const unsigned char *>(associatedData.constData()),
        static_cast<unsigned long long>(associatedData.size()), nullptr, nonce, m_sealKey.data());
    sodium_memzero(plain.data(), static_cast<std::size_t>(plain.size()));
    return sealed;
}

std::optional<QString> AadhaarVault::unseal(const QByteArray &sealed, const QByteArray &associatedData) const
{
    if (!m_hasKey || sealed.size() < NonceSize + TagSize)
        return std::nullopt;
    const auto *nonce = reinterpret_cast<const unsigned char *>(sealed.constData());
    QByteArray plain(sealed.size() - NonceSize - TagSize, Qt::Uninitialized);
    unsigned long long plainLength = 0;
    const int rc = crypto_aead_xchacha20poly1305_ietf_decrypt(
        reinterpret_cast<unsigned char *>(plain.data()), &plainLength, nullptr, nonce + NonceSize,
        static_cast<unsigned long long>(sealed.size() - NonceSize),
        reinterpret_cast<const unsigned char *>(associatedData.constData()),
        static_cast<unsigned long long>(associatedData.size()), nonce, m_sealKey.data());
    if (rc != 0)
        return std::nullopt;
    QString number = QString::fromUtf8(plain.constData(), static_cast<qsizetype>(plainLength));
    sodium_memzero(plain.data(), static_cast<std::size_t>(plain.size()));
    return number;
}

QByteArray AadhaarVault::keyedHash(QByteArrayView purpose, QByteArrayView value) const
{
    if (!m_hasKey)
        return {};
    Q_ASSERT(std::find(purpose.begin(), purpose.end(), '\0') == purpose.end());
    crypto_generichash_state state;
    crypto_generichash_init(&state, m_hashKey.data(), m_hashKey.size(), HashSize);
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char *>(purpose.data()),
                              static_cast<unsigned long long>(purpose.size()));
    const unsigned char separator = 0;
    crypto_generichash_update(&state, &separator, 1);
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char *>(value.data()),
                              static_cast<unsigned long long>(value.size()));
    QByteArray hash(HashSize, Qt::Uninitialized);
    crypto_generichash_final(&state, reinterpret_cast<unsigned char *>(hash.data()), HashSize);
    sodium_memzero(&state, sizeof state);
    return hash;
}

bool AadhaarVault::constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.isEmpty() || a.size() != b.size())
        return false;
    return sodium_memcmp(a.constData(), b.constData(), static_cast<std::size_t>(a.size())) == 0;
}

QString AadhaarVault::mask(const QString &aadhaarNumber)
{
    QString lastFour;
    for (qsizetype i = aadhaarNumber.size() - 1; i >= 0 && lastFour.size() < 4; --i) {
        const QChar c = aadhaarNumber.at(i);
        if (c >= u'0' && c <= u'9')
            lastFour.prepend(c);
    }
    if (lastFour.size() < 4)
        return QStringLiteral("XXXX XXXX XXXX");
    return QStringLiteral("XXXX XXXX ") + lastFour;
}
