#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

class ApiCall;
class TerminalContext;

namespace Ui {
class BackupCard;
}

/// Back office → Settings → Backups (issue 15, admin only; read-only): the server's last nightly backup (file,
/// IST time, size), the next run and the folder, from GET /api/v1/server/backup. A warning shows when no backup
/// is newer than 2 days (the server's "stale"), with the command that makes one now.
class BackupCard final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BackupCard)

public:
    explicit BackupCard(TerminalContext &context, QWidget *parent = nullptr);
    ~BackupCard() override;

    /// Reads the state again.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    TerminalContext &m_context;
    QPointer<ApiCall> m_call;
    std::unique_ptr<Ui::BackupCard> m_ui; ///< the form of backupcard.ui
};
