#include "sandboxresidents.h"

#include "validators.h"

#include <QCryptographicHash>

namespace SandboxResidents {

bool hasNoLinkedMobile(const QString &aadhaarNumber)
{
    return aadhaarNumber.size() == 12 && aadhaarNumber.mid(7, 4) == QLatin1String("0000");
}

std::optional<QString> linkedMobile(const QString &aadhaarNumber)
{
    if (!Validators::isAadhaarNumber(aadhaarNumber) || hasNoLinkedMobile(aadhaarNumber))
        return std::nullopt;
    const QByteArray input = QByteArrayLiteral("rechargedesk-sandbox-mobile:") + aadhaarNumber.toLatin1();
    const QByteArray hash = QCryptographicHash::hash(input, QCryptographicHash::Sha256);
    QString mobile;
    mobile.reserve(10);
    mobile.append(QChar(u'6' + quint8(hash.at(0)) % 4));
    for (int i = 1; i < 10; ++i)
        mobile.append(QChar(u'0' + quint8(hash.at(i)) % 10));
    return mobile;
}

} // namespace SandboxResidents
