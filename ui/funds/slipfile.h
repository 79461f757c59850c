#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QString>

#include <optional>

/// A photo of a payment slip chosen for a fund request (issue 30): at most FundRequest::kMaxSlipBytes (1 MiB), a PNG
/// or JPEG by its first bytes, and readable as a picture for the preview. Checked here, before anything is sent, so a
/// file the server would refuse is refused in words at once.
class SlipFile
{
    Q_DECLARE_TR_FUNCTIONS(SlipFile)

public:
    /// Reads the file at `path`: the slip, or nullopt with *refusal saying in words why it cannot be sent (too large:
    /// its size; not a PNG or JPEG; unreadable). A file over the limit is not read at all.
    static std::optional<SlipFile> read(const QString &path, QString *refusal);

    const QString &fileName() const { return m_fileName; }
    const QByteArray &bytes() const { return m_bytes; }
    /// "image/png" or "image/jpeg".
    const QString &contentType() const { return m_contentType; }
    const QImage &image() const { return m_image; }
    /// "slip.jpg · 245 KB".
    QString summary() const;

    /// A size in words: "845 bytes", "245 KB", "2.0 MiB".
    static QString sizeText(qint64 bytes);

private:
    QString m_fileName;
    QByteArray m_bytes;
    QString m_contentType;
    QImage m_image;
};
