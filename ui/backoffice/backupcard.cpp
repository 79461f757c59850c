#include "backupcard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "clock.h"
#include "serverapi.h"
#include "terminalcontext.h"
#include "ui_backupcard.h"

#include <QLabel>
#include <QLocale>

BackupCard::BackupCard(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::BackupCard>())
{
    m_ui->setupUi(this);
    BackOfficeUi::makeCard(this);
    m_ui->cardLayout->insertWidget(0, BackOfficeUi::heading(tr("Backups"), this));
}

BackupCard::~BackupCard() = default;

void BackupCard::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void BackupCard::refresh()
{
    if (m_call)
        return;
    m_call = ServerApi(m_context.api()).backup().then(this, [this](const Answer<BackupStatus> &answer) {
        if (!answer.ok()) {
            m_ui->backupLast->setText(tr("The backup state cannot be read: %1").arg(answer.error->description()));
            m_ui->backupSchedule->clear();
            m_ui->backupWarning->hide();
            return;
        }
        const BackupStatus &status = *answer.value;
        m_ui->backupLast->setText(!status.lastBackup
                                      ? tr("No backup yet.")
                                      : tr("Last backup: %1 IST, %2 (%3)")
                                            .arg(IstTime::format(status.lastBackup->createdAt), status.lastBackup->file,
                                                 QLocale().formattedDataSize(status.lastBackup->bytes)));
        QString schedule = status.enabled ? tr("Next backup: %1 IST into %2, keeping the last %3.")
                                                .arg(status.nextRunAt ? IstTime::format(*status.nextRunAt) : QString(),
                                                     status.folder.value_or(QString()))
                                                .arg(status.keep.value_or(0))
                                          : tr("Nightly backups are off (serve --backup-at).");
        if (status.lastError)
            schedule += QLatin1Char('\n') + tr("The last backup failed: %1").arg(*status.lastError);
        m_ui->backupSchedule->setText(schedule);
        m_ui->backupWarning->setText(
            tr("No backup is newer than 2 days. Make one now on the server: rechargedesk backup "
               "--to FILE (or check the nightly backup's folder and disk space)."));
        m_ui->backupWarning->setVisible(status.stale);
    });
}
