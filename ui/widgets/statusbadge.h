#pragma once

#include <QLabel>

/// A large coloured badge for a transaction_status: green SUCCESS, amber PENDING, red FAILED.
class StatusBadge final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatusBadge)

public:
    explicit StatusBadge(QWidget *parent = nullptr);
    /// Shows `status` ("SUCCESS", "PENDING", "FAILED") in words and colour.
    void setStatus(const QString &status);
    const QString &status() const { return m_status; }

private:
    QString m_status;
};
