#pragma once

#include <QList>
#include <QSslCertificate>
#include <QSslError>
#include <QString>

/// Certificate pinning of the terminal's connection to the shop server (issue 12, "TLS between terminals and the
/// shop server"). The shop server's certificate is usually self-signed, so the terminal trusts exactly one
/// certificate: the one whose SHA-256 fingerprint an admin confirmed on first contact and that was stored in
/// terminal.ini ([server] tls_fingerprint_sha256). Pure logic, no widgets and no network.
class TlsPin
{
public:
    /// What the certificate a server presented means for the connection.
    enum class Verdict
    {
        Trusted,  ///< the pinned certificate (or, without a pin, one the system trust store accepts)
        Unpinned, ///< no pin yet and not trusted by the system: ask an admin to confirm the fingerprint
        Changed,  ///< a pin exists and the server presented a different certificate: refuse
    };

    /// `pinnedFingerprint` is the stored pin in fingerprint() form; empty when there is none yet.
    explicit TlsPin(QString pinnedFingerprint = {});

    /// The SHA-256 fingerprint of `certificate` as upper-case colon-separated hex ("AB:CD:..."), the form
    /// `openssl x509 -noout -fingerprint -sha256` prints. Empty for a null certificate.
    static QString fingerprint(const QSslCertificate &certificate);
    /// Normalises a fingerprint typed or stored in another form (lower case, spaces, no colons) to
    /// fingerprint() form; empty when it is not 32 bytes of hex.
    static QString normalised(const QString &fingerprint);

    /// The stored pin in fingerprint() form (empty when none).
    const QString &pinned() const { return m_pinned; }
    bool isPinned() const { return !m_pinned.isEmpty(); }
    /// Pins `fingerprint` (any form normalised() accepts) from now on.
    void pin(const QString &fingerprint);

    /// Reads the pin stored in the INI file `iniPath` ([server] tls_fingerprint_sha256; terminal.ini). Empty when
    /// there is none or it is not a valid fingerprint.
    static QString readPin(const QString &iniPath);
    /// Stores `fingerprint` as the pin in `iniPath`. False when the file cannot be written.
    static bool writePin(const QString &iniPath, const QString &fingerprint);

    /// Judges the `peer` certificate a server presented; `errors` are the TLS verification errors of the handshake
    /// (empty when the system trust store accepted the chain and the host name). With a pin only that exact
    /// certificate is Trusted, whatever the errors; a different one is Changed even if a CA vouches for it.
    Verdict judge(const QSslCertificate &peer, const QList<QSslError> &errors) const;

private:
    QString m_pinned;
};
