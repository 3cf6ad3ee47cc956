package mcpauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Record is what the store keeps for one MCP server: the token and what
// refreshing it needs. It is written as JSON in a file of mode 0600.
type Record struct {
	// Endpoint is the MCP server's URL, which the record is kept under;
	// a record is only ever used for the endpoint it names.
	Endpoint string `json:"endpoint"`
	// Resource is the resource indicator (RFC 8707) the token was asked
	// for: the resource of the server's protected resource metadata.
	Resource string `json:"resource"`
	// Issuer is the authorization server that issued the token.
	Issuer string `json:"issuer"`
	// TokenEndpoint is where the token is refreshed.
	TokenEndpoint string `json:"token_endpoint"`
	// AuthStyle is how the client authenticates there (see
	// oauth2.AuthStyle).
	AuthStyle int `json:"auth_style,omitempty"`
	// ClientID is the client the token was issued to; ClientSecret is
	// kept only when the authorization server issued it at dynamic
	// registration (a configured secret stays in the environment).
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// Grant is GrantAuthorizationCode or GrantClientCredentials.
	Grant string `json:"grant"`
	// Scopes are the scopes asked for.
	Scopes []string `json:"scopes,omitempty"`

	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
}

// maxRecord is the largest record file read.
const maxRecord = 64 << 10

// Store keeps tokens in files of mode 0600, one per MCP server, in a
// directory of mode 0700. It refuses a directory or file that is a
// symbolic link, that another user owns, or that others may read or
// write: a token there may have been read, or planted, by someone else.
type Store struct {
	// Dir is the directory, created with mode 0700 (and its parents)
	// at the first Save; the agent uses $XDG_STATE_HOME/toolreg/oauth.
	Dir string
}

// path returns the file of endpoint's record.
func (s *Store) path(endpoint string) string {
	sum := sha256.Sum256([]byte(endpoint))
	return filepath.Join(s.Dir, "mcp-"+hex.EncodeToString(sum[:16])+".json")
}

// checkDir checks the directory, making it when it is missing and create
// is set; it reports fs.ErrNotExist when it is missing and create is not.
func (s *Store) checkDir(create bool) error {
	if s == nil || s.Dir == "" {
		return errors.New("no token directory")
	}
	fi, err := os.Lstat(s.Dir)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return err
	}
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(s.Dir), 0o700); err != nil {
			return fmt.Errorf("token directory: %w", err)
		}
		if err := os.Mkdir(s.Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("token directory: %w", err)
		}
		fi, err = os.Lstat(s.Dir)
	}
	if err != nil {
		return fmt.Errorf("token directory: %w", err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("token directory %s is a symbolic link; refused", s.Dir)
	case !fi.IsDir():
		return fmt.Errorf("token directory %s is not a directory", s.Dir)
	case checkPerms && fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("token directory %s has mode %04o, open to other users; refused (chmod 700 %s)", s.Dir, fi.Mode().Perm(), s.Dir)
	}
	if err := ownedByMe(fi); err != nil {
		return fmt.Errorf("token directory %s: %w; refused", s.Dir, err)
	}
	return nil
}

// checkFile checks a record file already open.
func checkFile(path string, fi fs.FileInfo) error {
	switch {
	case !fi.Mode().IsRegular():
		return fmt.Errorf("token file %s is not a regular file; refused", path)
	case checkPerms && fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("token file %s has mode %04o, open to other users; refused (its tokens may have leaked: sign in again after removing it)", path, fi.Mode().Perm())
	case fi.Size() > maxRecord:
		return fmt.Errorf("token file %s is larger than %d bytes; refused", path, maxRecord)
	}
	if err := ownedByMe(fi); err != nil {
		return fmt.Errorf("token file %s: %w; refused", path, err)
	}
	return nil
}

// Load returns the record of endpoint, or nil when there is none. A file
// that is a symbolic link, open to others, owned by another user, or
// whose record names another endpoint is an error.
func (s *Store) Load(endpoint string) (*Record, error) {
	if err := s.checkDir(false); errors.Is(err, fs.ErrNotExist) {
		return nil, nil // nothing kept yet; the directory is made at the first Save
	} else if err != nil {
		return nil, err
	}
	p := s.path(endpoint)
	f, err := openNoFollow(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	if err := checkFile(p, fi); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRecord))
	if err != nil {
		return nil, fmt.Errorf("token file %s: %w", p, err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("token file %s: not a token record: %w", p, err)
	}
	if r.Endpoint != endpoint {
		return nil, fmt.Errorf("token file %s holds a token for another server; refused", p)
	}
	return &r, nil
}

// Save writes r, replacing the record of its endpoint: a new file of
// mode 0600 renamed over the old one, so that a reader never sees half a
// record. An existing file that is not a regular file of this user's is
// refused, not replaced.
func (s *Store) Save(r *Record) error {
	if err := s.checkDir(true); err != nil {
		return err
	}
	p := s.path(r.Endpoint)
	if fi, err := os.Lstat(p); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("token file %s is a symbolic link; refused", p)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("token file %s is not a regular file; refused", p)
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("token record: %w", err)
	}
	tmp, err := os.CreateTemp(s.Dir, ".mcp-*.tmp") // mode 0600
	if err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("token file: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("token file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("token file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	return nil
}

// Delete removes the record of endpoint, if any.
func (s *Store) Delete(endpoint string) error {
	if err := os.Remove(s.path(endpoint)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("token file: %w", err)
	}
	return nil
}
