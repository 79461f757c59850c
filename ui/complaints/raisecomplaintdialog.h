#pragma once

#include "answer.h"
#include "entities/complaint.h"
#include "entities/transactionrecord.h"

#include <QDialog>

#include <memory>

class FormErrors;
class QLineEdit;
class QListWidget;
class QPushButton;
class TerminalContext;

/// "Raise complaint…" about a SUCCESS or PENDING sale (issue 29): the customer says the recharge did not arrive.
/// Keyboard-first: the reason list has the focus with "Not received" chosen (arrows or a first letter change it),
/// Tab goes to the note (required for "Other", up to Complaint::kMaxNote characters), Enter raises it
/// (POST /api/v1/transactions/{id}/complaints). The server's refusals (409 complaint_open …) stay in the dialog.
class RaiseComplaintDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RaiseComplaintDialog)

public:
    RaiseComplaintDialog(TerminalContext &context, const TransactionRecord &record, QWidget *parent = nullptr);
    ~RaiseComplaintDialog() override;

    /// The words shown for a reason code of Complaint::reasons() ("Not received" …).
    static QString reasonText(const QString &reason);

public slots:
    void reject() override;

signals:
    /// The server took the complaint: as it answered it.
    void raised(const Complaint &complaint);

private:
    void onRaiseClicked();
    void onAnswer(const Answer<Complaint> &answer);
    void setBusy(bool busy);

    TerminalContext &m_context;
    qint64 m_transactionId;
    bool m_busy = false;
    QListWidget *m_reasons;
    QLineEdit *m_note;
    QPushButton *m_raise;
    QPushButton *m_cancel;
    std::unique_ptr<FormErrors> m_errors;
};
