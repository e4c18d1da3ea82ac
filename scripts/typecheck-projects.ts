/**
 * Type-checks TypeScript projects as `tsc -p` does, one after another in one process:
 * `tsx scripts/typecheck-projects.ts sdk/tsconfig.json react/tsconfig.json tsconfig.pages.json`.
 *
 * Each project is its own program with its own options, and its diagnostics are tsc's for that
 * project (config errors, options, syntax, globals, semantics; printed as tsc prints them, with
 * the same exit status). What the programs share is what a language service shares between the
 * projects open in an editor: parsed source files, through one `DocumentRegistry`, which hands a
 * program a file parsed before only under the options that affect how that file parses and binds.
 * The three web programs read the same declaration files (the DOM and ES libraries, @types/node,
 * viem, React) and the SDK's sources; `tsc -p` three times parsed and bound all of them three
 * times: 30.7 CPU-s against 25.9 here (`npm run typecheck:web`, two runs each, 2026-11-30). Unlike
 * `tsc -p A && tsc -p B`, a project with errors does not keep the next from being checked.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

function checkProject(project: string, registry: ts.DocumentRegistry, formatHost: ts.FormatDiagnosticsHost): readonly ts.Diagnostic[] {
  const configErrors: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(resolve(project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (parsed === undefined) return configErrors;
  const options = parsed.options;
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError) => {
    let text: string;
    try {
      text = readFileSync(fileName, 'utf8');
    } catch (error) {
      onError?.(error instanceof Error ? error.message : String(error));
      return undefined;
    }
    const sourceFileOptions =
      typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    // The registry keys a file by its name and the options that affect how it parses and binds; the files do not change during a run.
    return registry.acquireDocument(fileName, options, ts.ScriptSnapshot.fromString(text), '1', undefined, sourceFileOptions);
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options,
    host,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [...configErrors, ...ts.getPreEmitDiagnostics(program)];
  process.stdout.write(
    process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost) : ts.formatDiagnostics(diagnostics, formatHost),
  );
  return diagnostics;
}

const projects = process.argv.slice(2);
if (projects.length === 0) {
  process.stderr.write('usage: tsx scripts/typecheck-projects.ts <tsconfig.json> [<tsconfig.json> ...]\n');
  process.exit(2);
}
const registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, ts.sys.getCurrentDirectory());
const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => (ts.sys.useCaseSensitiveFileNames ? fileName : fileName.toLowerCase()),
  getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
  getNewLine: () => ts.sys.newLine,
};
let errors = 0;
for (const project of projects) {
  const found = checkProject(project, registry, formatHost).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (found.length > 0) process.stdout.write(`${project}: ${found.length} error${found.length === 1 ? '' : 's'}\n`);
  errors += found.length;
}
process.exit(errors === 0 ? 0 : 2);
