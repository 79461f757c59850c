#pragma once

#include "answer.h"
#include "entities/statementrun.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class FormErrors;
class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QTableWidget;
class TerminalContext;

/// Back office → Settings → Upstreams → Statements (issue 26, "By the upstream's statement"): reconciles the CSV
/// statement an aggregator's dashboard exports against the sales sent to the chosen upstream. Import statement…
/// picks the file (QFileDialog "statementFileDialog") and sends it as it is (POST /api/v1/upstreams/{name}/statements,
/// live admin); the run's counts — rows, matched, settled, reversed, mismatched, unchanged, unknown, unreadable — and
/// its lines for a person (a mismatch, a reference of no sale of ours, an unreadable row) show below. The upstream's
/// past runs (GET …/statements) are listed newest first; selecting one opens it (GET …/statements/{id}). Sales a
/// statement settled or reversed change the wallet: the terminal's figures are told (salesChanged).
class StatementsCard final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatementsCard)

public:
    /// The largest statement sent (the server's default limit, ServerOptions::maxStatementBytes).
    static constexpr qint64 kMaxBytes = 8 * 1024 * 1024;

    explicit StatementsCard(TerminalContext &context, QWidget *parent = nullptr);
    ~StatementsCard() override;

    /// The upstreams to choose from, by priority; the chosen one stays when it still exists. `live`: whether this
    /// terminal may import (a live admin), else the runs are listed only.
    void setUpstreams(const QStringList &names, bool live);
    /// Chooses the upstream whose statements are shown and loads its runs.
    void setUpstream(const QString &name);
    /// The upstream chosen; empty for none.
    QString upstream() const;
    /// Reads the statement at `path` and sends it for the chosen upstream (what Import statement… does once a file
    /// is chosen); a file that cannot be read, is over kMaxBytes or is not UTF-8 text is said here and not sent.
    void importFile(const QString &path);
    /// The run shown; nullopt before one is imported or opened.
    const std::optional<StatementRun> &run() const { return m_run; }
    QTableWidget *runsTable() const { return m_runs; }
    QTableWidget *linesTable() const { return m_lines; }
    /// True while a statement is on its way.
    bool isBusy() const { return m_busy; }

signals:
    /// A statement was reconciled: its run as the server stored it.
    void imported(const StatementRun &run);

private:
    void onImportClicked();
    void loadRuns();
    void openRun(qint64 id);
    void showRun(const StatementRun &run);
    void updateButtons();
    /// The scroll area the card sits in (the Upstreams page's), to bring a new run into view; nullptr for none.
    QScrollArea *enclosingScrollArea() const;

    TerminalContext &m_context;
    bool m_live = false;
    bool m_busy = false;
    std::optional<StatementRun> m_run;
    QPointer<ApiCall> m_runsCall;
    QPointer<ApiCall> m_runCall;

    QComboBox *m_upstream;
    QPushButton *m_import;
    QTableWidget *m_runs;
    QLabel *m_runsNote;
    QWidget *m_runView;
    QLabel *m_runTitle;
    QList<std::pair<QLabel *, QLabel *>> m_counts; ///< (value, name) of each count
    QLabel *m_linesNote;
    QTableWidget *m_lines;
    QLabel *m_notice;
    std::unique_ptr<FormErrors> m_errors;
};
