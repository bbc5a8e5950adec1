; Inno Setup 6 script for the Windows installer. Not built on the Linux CI machines: see
; packaging/windows/README.md for the build, signing and check steps, run on Windows.
; Input: the PyInstaller folder dist\hearth (hearth.exe, hearth-cli.exe, _internal\ with the
; llama.cpp DLLs for every CPU level, the Alembic migrations, resources and the SmolLM2 model).
; User data lives in %LOCALAPPDATA%\Hearth (platformdirs) and is never touched by the
; installer or the uninstaller, so an upgrade or uninstall keeps conversations and accounts.

#define AppName "Hearth"
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#ifndef SourceDir
  #define SourceDir "..\..\build\windows\dist\hearth"
#endif

[Setup]
AppId={{6E4B2F1C-9B2D-4C39-8E0F-3A7D5C1B9E42}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=Hearth developers
VersionInfoVersion={#AppVersion}
; Per-user install by default (no admin rights needed); an administrator may choose all users.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0.17763
OutputDir=..\..\dist
OutputBaseFilename=hearth-{#AppVersion}-windows-x64-setup
SetupIconFile=hearth.ico
UninstallDisplayIcon={app}\hearth.exe
; lzma2 on ~400 MB takes minutes; the model and DLLs barely compress anyway.
Compression=lzma2/fast
SolidCompression=no
WizardStyle=modern
CloseApplications=yes
; signtool is registered in the IDE/command line as "signtool" (see README); remove both lines
; for an unsigned test build.
SignTool=signtool
SignedUninstaller=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The whole onedir folder. An upgrade replaces it; files of older versions that are gone are
; removed by [InstallDelete] below, never the user's data folder.
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\hearth.exe"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\hearth.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\hearth.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
