#pragma once

#include "answer.h"
#include "entities/complaint.h"

#include <QDialog>

#include <memory>

class FormErrors;
class QLineEdit;
class QPushButton;
class QRadioButton;
class TerminalContext;

/// An admin ends an unresolved complaint by hand (issue 29) after dealing with the aggregator: "Credited back" (the
/// sale is reversed: FAILED, refunded once) or "Rejected" with the words to tell the customer (required) and the
/// operator's reference (optional); POST /api/v1/complaints/{id}/resolve. No outcome is chosen for the admin: a stray
/// Enter ends nothing. The server's refusals (403, 409 complaint_resolved …) stay in the dialog.
class ResolveComplaintDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResolveComplaintDialog)

public:
    ResolveComplaintDialog(TerminalContext &context, const Complaint &complaint, QWidget *parent = nullptr);
    ~ResolveComplaintDialog() override;

public slots:
    void reject() override;

signals:
    /// The server resolved it: the complaint as it answered.
    void resolved(const Complaint &complaint);

private:
    void onResolveClicked();
    void onAnswer(const Answer<Complaint> &answer);
    void setBusy(bool busy);

    TerminalContext &m_context;
    qint64 m_complaintId;
    bool m_busy = false;
    QRadioButton *m_credited;
    QRadioButton *m_rejected;
    QLineEdit *m_words;
    QLineEdit *m_reference;
    QPushButton *m_resolve;
    QPushButton *m_cancel;
    std::unique_ptr<FormErrors> m_errors;
};
