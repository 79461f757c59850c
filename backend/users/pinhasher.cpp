#include "pinhasher.h"

#include <sodium.h>
#include <stdexcept>

namespace {

constexpr size_t kMemLimit = 16 * 1024 * 1024; // 16 MiB: plenty for a PIN that lockout protects

void ensureSodium()
{
    static const bool ready = sodium_init() >= 0;
    if (!ready)
        throw std::runtime_error("libsodium could not be initialised");
}

} // namespace

namespace PinHasher {

bool isValidAdminPin(const QString &pin)
{
    return isValidPin(pin) && pin.size() >= kMinAdminDigits;
}

bool isValidPin(const QString &pin)
{
    if (pin.size() < kMinDigits || pin.size() > kMaxDigits)
        return false;
    for (const QChar c : pin) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

QString hash(const QString &pin)
{
    ensureSodium();
    const QByteArray bytes = pin.toUtf8();
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, bytes.constData(), static_cast<unsigned long long>(bytes.size()),
                          crypto_pwhash_OPSLIMIT_INTERACTIVE, kMemLimit) != 0)
        throw std::runtime_error("crypto_pwhash_str failed (out of memory)");
    return QString::fromLatin1(out);
}

bool verify(const QString &hashString, const QString &pin)
{
    ensureSodium();
    const QByteArray stored = hashString.toLatin1();
    if (stored.isEmpty() || stored.size() >= crypto_pwhash_STRBYTES)
        return false;
    const QByteArray bytes = pin.toUtf8();
    return crypto_pwhash_str_verify(stored.constData(), bytes.constData(),
                                    static_cast<unsigned long long>(bytes.size())) == 0;
}

void verifyDummy(const QString &pin)
{
    static const QString dummy = hash(QStringLiteral("00000000"));
    verify(dummy, pin);
}

} // namespace PinHasher
