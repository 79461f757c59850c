#include "statusbadge.h"

#include "widgets/look.h"

#include <QStyle>

StatusBadge::StatusBadge(QWidget *parent) : QLabel(parent)
{
    Look::set(this, "statusBadge");
    setAlignment(Qt::AlignCenter);
    setMinimumHeight(56);
}

void StatusBadge::setStatus(const QString &status)
{
    m_status = status;
    if (status == QLatin1String("SUCCESS"))
        setText(tr("✔ SUCCESS"));
    else if (status == QLatin1String("PENDING"))
        setText(tr("⏳ PENDING — waiting for the operator"));
    else if (status == QLatin1String("FAILED"))
        setText(tr("✘ FAILED — amount refunded to the wallet"));
    else
        setText(status);
    setProperty("status", status);
    style()->unpolish(this);
    style()->polish(this);
}
