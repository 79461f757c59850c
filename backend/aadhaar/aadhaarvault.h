#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <array>
#include <cstddef>
#include <optional>

/// Keeps Aadhaar numbers and OTP secrets out of the database in readable form, as the UIDAI Aadhaar Data Vault rules
/// require (api-conventions.md, "Aadhaar OTP flow"): numbers are sealed with authenticated encryption
/// (XChaCha20-Poly1305-IETF, libsodium) and OTPs / captcha answers are stored as keyed BLAKE2b hashes (RFC 7693).
/// The 32-byte master key lives in a separate owner-only file (e.g. <data-dir>/keys/aadhaar.key); two subkeys are
/// derived from it with crypto_kdf (context "AADHAAR1": 1 = encryption, 2 = hashing) and the master key is wiped.
///
/// Move-only; the subkeys are wiped (sodium_memzero) on destruction and when moved from. A moved-from vault holds no
/// key: seal() and keyedHash() return empty arrays and unseal() returns nullopt. All const members are thread-safe.
class AadhaarVault
{
public:
    /// Size of the master key file and of each derived subkey, in bytes (crypto_kdf_KEYBYTES).
    static constexpr std::size_t KeySize = 32;
    /// Size of keyedHash() results, in bytes (BLAKE2b-256).
    static constexpr qsizetype HashSize = 32;
    /// Bytes seal() adds to the UTF-8 plaintext: 24-byte nonce in front, 16-byte Poly1305 tag behind.
    static constexpr qsizetype SealOverhead = 24 + 16;

    /// Loads the master key from @p keyFilePath, or creates the file with a fresh random key (crypto_kdf_keygen)
    /// and mode 0600 if it does not exist; a missing parent directory is created with mode 0700. Returns nullopt
    /// and, if @p error is not null, a human-readable reason when libsodium cannot start, the path is empty or not a
    /// regular file (symlinks are refused), the file is accessible by group or others, is owned by another user,
    /// is not exactly KeySize bytes, or cannot be created, read or written.
    static std::optional<AadhaarVault> openOrCreate(const QString &keyFilePath, QString *error);

    /// Takes the key of @p other, which is left empty (its key wiped).
    AadhaarVault(AadhaarVault &&other) noexcept;
    /// Wipes this vault's key and takes the key of @p other, which is left empty.
    AadhaarVault &operator=(AadhaarVault &&other) noexcept;
    /// Not copyable: the key material exists once.
    AadhaarVault(const AadhaarVault &) = delete;
    AadhaarVault &operator=(const AadhaarVault &) = delete;
    /// Wipes the key material (sodium_memzero).
    ~AadhaarVault();

    /// Encrypts @p aadhaarNumber (as UTF-8) with XChaCha20-Poly1305-IETF under a fresh random nonce and returns
    /// nonce || ciphertext || tag (plaintext size + SealOverhead bytes). @p associatedData is authenticated but not
    /// stored: pass what binds the value to its row (e.g. the transaction id as text) and the same bytes to
    /// unseal(). Returns an empty QByteArray only from a moved-from vault.
    QByteArray seal(const QString &aadhaarNumber, const QByteArray &associatedData) const;

    /// Decrypts the output of seal(). Returns nullopt if @p sealed is too short, was altered, was sealed under
    /// another key, or @p associatedData differs from the bytes given to seal().
    std::optional<QString> unseal(const QByteArray &sealed, const QByteArray &associatedData) const;

    /// Returns the HashSize-byte keyed BLAKE2b hash (crypto_generichash, RFC 7693) of
    /// @p purpose || 0x00 || @p value, keyed with the hashing subkey. Stable for the same key file; different
    /// purposes (e.g. "otp", "captcha") give unrelated hashes for the same value. @p purpose must not contain a NUL
    /// byte. Returns an empty QByteArray only from a moved-from vault.
    QByteArray keyedHash(QByteArrayView purpose, QByteArrayView value) const;

    /// Compares two hashes in time independent of their contents (sodium_memcmp); arrays of different sizes and
    /// empty arrays never compare equal, so a missing hash cannot match.
    static bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

    /// Masks an Aadhaar number for logs, UI lists, receipts and history as "XXXX XXXX 1234", keeping the last four
    /// ASCII digits of @p aadhaarNumber (spaces and other characters are ignored). With fewer than four digits
    /// nothing is revealed: "XXXX XXXX XXXX".
    static QString mask(const QString &aadhaarNumber);

private:
    using Key = std::array<unsigned char, KeySize>;

    /// Derives the subkeys from @p masterKey; the caller wipes @p masterKey.
    explicit AadhaarVault(const Key &masterKey);
    void wipe() noexcept;

    Key m_sealKey{};
    Key m_hashKey{};
    bool m_hasKey = false;
};
