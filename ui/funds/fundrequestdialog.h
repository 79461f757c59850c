#pragma once

#include "answer.h"
#include "entities/upstreamfundrequest.h"
#include "entities/upstreaminfo.h"
#include "slipfile.h"

#include <QDialog>

#include <memory>
#include <optional>

class DigitsLineEdit;
class FormErrors;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class TerminalContext;

/// "Request top-up…" (issue 30, "Fund requests"): the shop asks its distributor (the RechargeDesk upstream
/// `upstream`, which takes fund requests) to credit its live wallet for money it paid them — the amount in rupees, how
/// it paid (UPI, bank transfer, cash deposit), the UTR or reference, an optional note and an optional photo of the slip
/// chosen with a file dialog and shown as a preview. A slip over 1 MiB or not a PNG/JPEG is refused in words when
/// chosen, before anything is sent. Sends POST /api/v1/upstreams/{name}/fund-requests; the server's refusals stay in
/// the dialog at their field, and a request the distributor refused (state `refused`) says its words here too. Cannot
/// be closed while the request is on its way.
class FundRequestDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FundRequestDialog)

public:
    FundRequestDialog(TerminalContext &context, const UpstreamInfo &upstream, QWidget *parent = nullptr);
    ~FundRequestDialog() override;

    /// True while the request is on its way.
    bool isBusy() const { return m_busy; }
    /// The slip chosen now (nullopt: none).
    const std::optional<SlipFile> &slip() const { return m_slip; }
    /// Takes the file at `path` as the slip, or refuses it in words at the slip's field (keeping none). What the
    /// file dialog calls.
    void chooseSlipFile(const QString &path);

public slots:
    void reject() override;

signals:
    /// The server stored the request (whatever its state): the list shows it.
    void sent(const UpstreamFundRequest &request);

private:
    void onChooseSlipClicked();
    void removeSlip();
    void onSendClicked();
    void onAnswer(const Answer<UpstreamFundRequest> &answer);
    void setBusy(bool busy);
    /// Grows the dialog to the height its messages and the preview need at its width.
    void fitToContents();

    TerminalContext &m_context;
    QString m_upstream;
    bool m_busy = false;
    std::optional<SlipFile> m_slip;

    DigitsLineEdit *m_amount;
    QComboBox *m_method;
    QLineEdit *m_utr;
    QLineEdit *m_note;
    QPushButton *m_chooseSlip;
    QPushButton *m_removeSlip;
    QLabel *m_slipName;
    QLabel *m_preview;
    QPushButton *m_send;
    QPushButton *m_cancel;
    std::unique_ptr<FormErrors> m_errors;
};
