import type { Resources } from './en';

// Bahasa Indonesia: every key of en.ts (the type holds it to that).
export const id: Resources = {
  app: { merchantTitle: 'Dasbor merchant', consoleTitle: 'Konsol operator', skipToContent: 'Langsung ke konten', mainNav: 'Navigasi utama', openNav: 'Buka navigasi', signedInAs: 'Masuk sebagai {{email}}', sandbox: 'Sandbox' },
  lang: { switchTo: 'English' },
  common: {
    loading: 'Memuat…', retry: 'Coba lagi', loadMore: 'Muat lebih banyak', cancel: 'Batal', close: 'Tutup', save: 'Simpan', copy: 'Salin', copied: 'Tersalin',
    empty: 'Belum ada data.', errorTitle: 'Terjadi kesalahan', notFound: 'Halaman tidak ditemukan', backHome: 'Kembali ke awal',
    status: 'Status', all: 'Semua', from: 'Dari', to: 'Sampai', apply: 'Terapkan', yes: 'Ya', no: 'Tidak', active: 'Aktif', inactive: 'Nonaktif',
    shownOnce: 'Hanya ditampilkan sekali: salin sekarang.', create: 'Buat', backToList: 'Kembali ke daftar', saved: 'Tersimpan.', createdAt: 'Dibuat', actions: 'Aksi', amount: 'Jumlah', none: 'Tidak ada',
  },
  status: { pending: 'Menunggu', success: 'Berhasil', failed: 'Gagal', expired: 'Kedaluwarsa', processing: 'Diproses', ready: 'Siap', running: 'Berjalan', queued: 'Dalam antrean', delivered: 'Terkirim', dead: 'Mati', active: 'Aktif', inactive: 'Nonaktif', open: 'Terbuka', replayed: 'Diputar ulang', resolved: 'Diselesaikan', delivering: 'Sedang dikirim', retry: 'Dicoba lagi' },
  errors: {
    SIGN_IN_FAILED: 'Email atau kata sandi salah.',
    TOTP_REQUIRED: 'Masukkan kode dari aplikasi autentikator Anda.',
    ACCOUNT_LOCKED: 'Akun ini dikunci setelah terlalu banyak percobaan gagal. Coba lagi dalam {{minutes}} menit.',
    ACCOUNT_LOCKED_NO_TIME: 'Akun ini dikunci setelah terlalu banyak percobaan gagal. Coba lagi nanti.',
    SESSION_REQUIRED: 'Sesi Anda telah berakhir. Silakan masuk lagi.',
    CSRF_TOKEN_INVALID: 'Sesi Anda berubah. Muat ulang halaman lalu coba lagi.',
    SETUP_LINK_INVALID: 'Tautan ini tidak valid, sudah dipakai, atau kedaluwarsa. Minta tautan baru kepada administrator.',
    NETWORK_ERROR: 'Server tidak dapat dihubungi. Periksa koneksi Anda.',
    VALIDATION_ERROR: 'Periksa kembali isian yang ditandai.',
    passwordTooShort: 'Minimal 12 karakter.',
    passwordTooLong: 'Maksimal 128 karakter.',
    passwordsDiffer: 'Kata sandi tidak sama.',
    required: 'Wajib diisi.',
  },
  auth: {
    signInTitle: 'Masuk', email: 'Email', password: 'Kata sandi', totp: 'Kode autentikasi', totpHint: 'Kode 6 digit dari aplikasi autentikator Anda', signIn: 'Masuk', signOut: 'Keluar',
    setPasswordTitle: 'Atur kata sandi Anda', newPassword: 'Kata sandi baru', confirmPassword: 'Konfirmasi kata sandi', setPassword: 'Atur kata sandi', passwordHint: '12 sampai 128 karakter',
    passwordSet: 'Kata sandi Anda sudah diatur. Silakan masuk.', goToSignIn: 'Ke halaman masuk',
  },
  nav: { overview: 'Ringkasan', payins: 'Pembayaran masuk', payouts: 'Pencairan', reconciliation: 'Rekonsiliasi', developers: 'Pengembang', merchants: 'Merchant', settlements: 'Penyelesaian dana', deadLetters: 'Pesan gagal', webhookDeliveries: 'Pengiriman webhook', auditLog: 'Log audit' },
  overview: {
    title: 'Ringkasan', available: 'Saldo tersedia', pending: 'Saldo tertunda', todayPayins: 'Pembayaran masuk hari ini', todayPayouts: 'Pencairan hari ini', count_one: '{{count}} transaksi', count_other: '{{count}} transaksi',
    chartTitle: '30 hari terakhir', chartLabel: 'Pembayaran masuk dan pencairan per hari selama 30 hari terakhir', payins: 'Pembayaran masuk', payouts: 'Pencairan', day: 'Hari',
  },
  payins: {
    title: 'Pembayaran masuk', tableLabel: 'Pembayaran masuk', search: 'Cari berdasarkan ID transaksi merchant', createQr: 'Buat QR', createTitle: 'Buat kode QRIS', amount: 'Jumlah', merchantTrxId: 'ID transaksi merchant', merchantTrxIdHint: 'Opsional: dibuatkan otomatis jika kosong', create: 'Buat',
    platformTrxId: 'ID transaksi platform', fee: 'Biaya', net: 'Jumlah bersih', createdAt: 'Dibuat', paidAt: 'Dibayar pada', expiresAt: 'Kedaluwarsa pada', empty: 'Tidak ada pembayaran masuk yang cocok.',
    detailTitle: 'Pembayaran masuk {{id}}', qrAlt: 'Kode QRIS', qrGone: 'Kode QR ini tidak dapat dibayar lagi.', simulate: 'Simulasikan pembayaran', simulated: 'Pembayaran disimulasikan.', rrn: 'RRN', nmid: 'NMID',
  },
  payouts: {
    title: 'Pencairan', tableLabel: 'Pencairan', search: 'Cari berdasarkan ID transaksi merchant', empty: 'Tidak ada pencairan yang cocok.', merchantTrxId: 'ID transaksi merchant', account: 'Rekening', bank: 'Bank', total: 'Total', fee: 'Biaya', createdAt: 'Dibuat', successAt: 'Selesai pada',
    detailTitle: 'Pencairan {{id}}', attempts: 'Percobaan callback', attemptTime: 'Waktu', httpStatus: 'Status HTTP', latency: 'Latensi', latencyMs: '{{ms}} md', response: 'Respons', noAttempts: 'Belum ada percobaan callback.', resend: 'Kirim ulang callback', resent: 'Callback masuk antrean lagi.', noResponse: 'Tanpa respons',
  },
  recon: { title: 'Rekonsiliasi', intro: 'Ekspor transaksi satu hari (Asia/Jakarta) sebagai berkas.', date: 'Tanggal', export: 'Ekspor', preparing: 'Menyiapkan berkas…', download: 'Unduh', failed: 'Ekspor gagal.', stale: 'Ada transaksi hari itu yang berubah setelah berkas dibuat. Ekspor hari itu lagi.', job: 'Tugas {{id}}' },
  developers: {
    title: 'Pengembang', tokens: 'Token API', tokensLabel: 'Token API', tokenLabel: 'Label token', createToken: 'Buat token', newToken: 'Token baru Anda', label: 'Label', created: 'Dibuat', revoked: 'Dicabut', revoke: 'Cabut', revokeTitle: 'Cabut token ini?', revokeBody: 'Panggilan dengan "{{label}}" akan langsung ditolak. Tindakan ini tidak dapat dibatalkan.', revokeToken: 'Cabut token', noTokens: 'Belum ada token.',
    webhook: 'Kunci penanda tangan webhook', webhookIntro: 'Callback ditandatangani dengan kunci ini. Merotasi membuat kunci baru seketika.', rotate: 'Rotasi kunci webhook', newSecret: 'Kunci webhook baru Anda',
    callbackUrl: 'URL callback', callbackUrlHint: 'URL callback bawaan pembayaran masuk; kosongkan untuk menghapus', saveCallbackUrl: 'Simpan URL callback',
    allowlist: 'Daftar IP yang diizinkan', allowlistIntro: 'Jika aktif, token API hanya berlaku dari alamat ini. Tidak berlaku untuk dasbor ini.', allowlistEnabled: 'Izinkan panggilan API hanya dari alamat terdaftar', allowlistEntries: 'Alamat yang diizinkan', allowlistHint: 'Satu alamat IP atau rentang CIDR per baris', saveAllowlist: 'Simpan daftar',
    deliveries: 'Pengiriman callback terbaru', deliveriesLabel: 'Pengiriman callback terbaru', kind: 'Jenis', url: 'URL', attempts: 'Percobaan', lastStatus: 'Status HTTP terakhir', noDeliveries: 'Belum ada callback terkirim.', kinds: { payout: 'Pencairan', payin: 'Pembayaran masuk' }, lastUsed: 'Terakhir dipakai',
    totp: 'Autentikasi dua faktor', totpOn: 'Autentikasi dua faktor aktif.', totpOff: 'Autentikasi dua faktor nonaktif.', totpStart: 'Atur autentikasi dua faktor', totpScan: 'Pindai kode ini dengan aplikasi autentikator, atau masukkan kuncinya secara manual.', totpQrAlt: 'Kode QR autentikator', totpSecret: 'Kunci', totpCode: 'Kode dari aplikasi', totpConfirm: 'Aktifkan', totpEnabled: 'Autentikasi dua faktor aktif.', totpDisable: 'Nonaktifkan autentikasi dua faktor', totpDisabled: 'Autentikasi dua faktor nonaktif.',
  },
  merchants: {
    title: 'Merchant', tableLabel: 'Merchant', name: 'Nama', id: 'ID', balance: 'Saldo tersedia', pending: 'Saldo tertunda', state: 'Keadaan', activate: 'Aktifkan', deactivate: 'Nonaktifkan', create: 'Buat merchant', createTitle: 'Buat merchant', empty: 'Belum ada merchant.',
    created: 'Merchant dibuat', token: 'Token API', webhookSecret: 'Kunci webhook', details: 'Detail', detailTitle: 'Merchant {{name}}',
    fees: 'Biaya', payinFeePercent: 'Biaya pembayaran masuk (%)', payinFeeFixed: 'Biaya pembayaran masuk, tetap (Rp)', payoutFee: 'Biaya pencairan (Rp)', saveFees: 'Simpan biaya',
    qris: 'Identitas QRIS', nmid: 'NMID', criteria: 'Kriteria merchant (UMI, UKE, UME, UBE, URE)', city: 'Kota', postalCode: 'Kode pos', mcc: 'Kode kategori merchant', saveQris: 'Simpan identitas QRIS',
    schedule: 'Jadwal penyelesaian dana', scheduleNow: 'Saat ini: {{value}}', scheduleDelayDays: 'Tunda dalam hari (T+N)', scheduleHour: 'Jam (Asia/Jakarta, 0 sampai 23)', saveSchedule: 'Simpan jadwal', merchantNameLabel: 'Nama merchant', callbackUrl: 'URL callback pembayaran masuk', users: 'Pengguna dasbor',
    inviteUser: 'Undang pengguna', inviteEmail: 'Email pengguna', invite: 'Kirim undangan', inviteLink: 'Tautan atur kata sandi', inviteLinkHint: 'Berikan tautan ini kepada pengguna; berlaku sekali, selama 72 jam.',
  },
  settlements: { title: 'Penyelesaian dana', tableLabel: 'Penyelesaian dana', merchant: 'Merchant', gross: 'Bruto', fees: 'Biaya', amount: 'Dikreditkan (neto)', count: 'Pembayaran masuk', cutoffAt: 'Batas waktu', createdAt: 'Dibuat', empty: 'Belum ada penyelesaian dana.' },
  deadLetters: { title: 'Pesan gagal', tableLabel: 'Pesan gagal', topic: 'Topik', reason: 'Alasan', createdAt: 'Dibuat', replay: 'Putar ulang', replayConfirm: 'Putar ulang pesan', replayTitle: 'Putar ulang pesan ini?', replayBody: 'Pesan {{id}} dikirim lagi ke {{topic}}.', replayed: 'Diputar ulang.', empty: 'Tidak ada pesan gagal.', replayedAt: 'Diputar ulang pada' },
  deliveries: { title: 'Pengiriman webhook', tableLabel: 'Pengiriman webhook', merchant: 'Merchant', kind: 'Jenis', reference: 'Referensi', url: 'URL', attempts: 'Percobaan', lastStatus: 'Status HTTP terakhir', state: 'Keadaan', resend: 'Kirim ulang', resent: 'Masuk antrean lagi.', empty: 'Tidak ada pengiriman.' },
  audit: { title: 'Log audit', tableLabel: 'Log audit', time: 'Waktu', operator: 'Operator', action: 'Aksi', target: 'Target', details: 'Detail', logId: 'ID log', empty: 'Belum ada aksi tercatat.' },
};
