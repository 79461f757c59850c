#include "backupcard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "clock.h"
#include "serverapi.h"
#include "terminalcontext.h"

#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

BackupCard::BackupCard(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_last(new QLabel(this)), m_schedule(new QLabel(this)),
      m_warning(new QLabel(this))
{
    setObjectName(QStringLiteral("card"));
    setAttribute(Qt::WA_StyledBackground);
    m_last->setObjectName(QStringLiteral("backupLast"));
    m_last->setWordWrap(true);
    m_last->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_last->setStyleSheet(QStringLiteral("font-weight: 600; color: #1d2939;"));
    m_schedule->setObjectName(QStringLiteral("backupSchedule"));
    m_schedule->setWordWrap(true);
    m_schedule->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning->setObjectName(QStringLiteral("backupWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(
        QStringLiteral("color: #ffffff; background: #b42318; padding: 8px 12px; border-radius: 6px;"));
    m_warning->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 14, 20, 14);
    layout->addWidget(BackOfficeUi::heading(tr("Backups"), this));
    layout->addWidget(
        BackOfficeUi::hint(tr("The server copies the sales, settings and the key vault into one file every night. "
                              "Keep a copy off this computer too."),
                           this));
    layout->addWidget(m_last);
    layout->addWidget(m_schedule);
    layout->addWidget(m_warning);
    layout->addStretch();
}

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
            m_last->setText(tr("The backup state cannot be read: %1").arg(answer.error->description()));
            m_schedule->clear();
            m_warning->hide();
            return;
        }
        const BackupStatus &status = *answer.value;
        m_last->setText(!status.lastBackup
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
        m_schedule->setText(schedule);
        m_warning->setText(tr("No backup is newer than 2 days. Make one now on the server: rechargedesk backup "
                              "--to FILE (or check the nightly backup's folder and disk space)."));
        m_warning->setVisible(status.stale);
    });
}
