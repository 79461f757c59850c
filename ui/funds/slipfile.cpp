#include "slipfile.h"

#include "entities/fundrequest.h"

#include <QFile>
#include <QFileInfo>

std::optional<SlipFile> SlipFile::read(const QString &path, QString *refusal)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    const auto refuse = [refusal](const QString &why) {
        if (refusal)
            *refusal = why;
        return std::nullopt;
    };
    if (!info.isFile())
        return refuse(tr("%1 is not a file that can be read.").arg(name));
    if (info.size() > FundRequest::kMaxSlipBytes)
        return refuse(tr("%1 is %2: a slip photo may be at most 1 MiB. Take a smaller photo or crop it.")
                          .arg(name, sizeText(info.size())));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(tr("%1 could not be read: %2").arg(name, file.errorString()));
    SlipFile slip;
    slip.m_bytes = file.readAll();
    if (slip.m_bytes.size() > FundRequest::kMaxSlipBytes) // it grew since it was measured
        return refuse(tr("%1 is %2: a slip photo may be at most 1 MiB. Take a smaller photo or crop it.")
                          .arg(name, sizeText(slip.m_bytes.size())));
    slip.m_contentType = FundRequest::slipTypeOf(slip.m_bytes);
    if (slip.m_contentType.isEmpty())
        return refuse(tr("%1 is not a PNG or JPEG photo. Choose a photo of the slip (PNG or JPEG).").arg(name));
    if (!slip.m_image.loadFromData(slip.m_bytes))
        return refuse(
            tr("%1 looks like a photo but cannot be shown: it may be damaged. Take the photo again.").arg(name));
    slip.m_fileName = name;
    return slip;
}

QString SlipFile::summary() const
{
    return tr("%1 · %2").arg(m_fileName, sizeText(m_bytes.size()));
}

QString SlipFile::sizeText(qint64 bytes)
{
    if (bytes < 1024)
        return tr("%1 bytes").arg(bytes);
    if (bytes < 1024 * 1024)
        return tr("%1 KB").arg((bytes + 1023) / 1024);
    return tr("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}
